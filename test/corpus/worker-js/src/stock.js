// Stock counts kept per shop and item, read and written back by small helpers.
const { TableClient, odata } = require("@azure/data-tables");

const stock = TableClient.fromConnectionString(process.env.JOBS_STORAGE || "UseDevelopmentStorage=true", "stock");

/** One count, or null when the shop never stocked the item. */
async function countOf(shop, item) {
  try {
    return await stock.getEntity(shop, item); // query: point
  } catch (e) {
    if (e.statusCode === 404) return null;
    throw e;
  }
}

/** Every count of a shop, gathered into an array. */
async function shelf(shop) {
  const all = [];
  for await (const row of stock.listEntities({ queryOptions: { filter: odata`PartitionKey eq ${shop}` } })) all.push(row); // query: row-range
  return all;
}

/** A delivery adds to the count: the count read, plus what came, written back without the read's ETag. */
async function receive(shop, item, qty) {
  const before = await countOf(shop, item);
  const units = Number(before ? before.units : 0) + qty;
  await stock.upsertEntity({ partitionKey: shop, rowKey: item, units }, "Replace"); // expect: ts/read-before-write
}

/** Only the clerk who opened the count may close it: a check of what was read, then a write. */
async function close(shop, item, clerk) {
  let open;
  try {
    open = await stock.getEntity(shop, item); // expect: ts/read-before-write // query: point
  } catch {
    return false;
  }
  if (open.clerk !== clerk) return false;
  await stock.updateEntity({ partitionKey: shop, rowKey: item, closed: true }, "Merge");
  return true;
}

/** A label changed on one row of the shelf, the row written back whole. */
async function relabel(shop, item, label) {
  const rows = await shelf(shop);
  const row = rows.find((r) => r.rowKey === item);
  if (!row) return;
  await stock.updateEntity({ ...row, label }, "Replace"); // expect: ts/read-before-write
}

module.exports = { receive, close, relabel };
