// Walkthrough script: create a table, add a few products, query them back.
const { TableClient, odata } = require("@azure/data-tables");

async function main() {
  const client = TableClient.fromConnectionString(process.env.CONNECTION_STRING || "UseDevelopmentStorage=true", "products");
  await client.createTable();
  const partitionKey = "Stationery";
  await client.createEntity({ partitionKey, rowKey: "A1", name: "Marker", price: 5.0, quantity: 21 }); // expect: ts/constant-partition-key
  await client.createEntity({ partitionKey, rowKey: "A2", name: "Pen", price: 1.5, quantity: 100 });
  await client.createEntity({ partitionKey, rowKey: "A3", name: "Notebook", price: 3.2, quantity: 8 });

  const cheap = client.listEntities({ queryOptions: { filter: odata`PartitionKey eq ${partitionKey} and price lt ${4}` } }); // query: row-range
  for await (const p of cheap) console.log(p.name, p.price);

  const marker = await client.getEntity(partitionKey, "A1"); // query: point
  console.log(marker.name);
  await client.deleteTable();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
