import { odata, TransactionAction } from "@azure/data-tables";
import moment from "moment";
import products, { table } from "./tables";

export interface Product { sku: string; category: string; name: string; price: number; stock: number }

function toEntity(p: Product) {
  return { partitionKey: p.category.toLowerCase(), rowKey: p.sku, name: p.name, price: p.price, stock: p.stock };
}

export async function importCatalog(items: Product[]): Promise<void> {
  const byCategory = new Map<string, Product[]>();
  for (const p of items) byCategory.set(p.category, [...(byCategory.get(p.category) ?? []), p]);
  for (const group of byCategory.values()) {
    for (let i = 0; i < group.length; i += 100) {
      await products.submitTransaction(group.slice(i, i + 100).map((p): TransactionAction => ["upsert", toEntity(p), "Replace"]));
    }
  }
}

export async function restock(skus: string[], category: string): Promise<void> {
  await Promise.all(skus.map((sku, i) => products.updateEntity({ partitionKey: category, rowKey: sku, stock: 10, batch: i.toString() }, "Merge")));
}

export async function inCategory(category: string, maxPrice?: number) {
  let filter = odata`PartitionKey eq ${category}`;
  if (maxPrice !== undefined) filter += odata` and price le ${maxPrice}`;
  return products.listEntities<Product>({ queryOptions: { filter } }); // query: unknown
}

export async function bySku(sku: string) {
  // The SKU alone does not say the category: every partition is searched.
  return products.listEntities<Product>({ queryOptions: { filter: odata`RowKey eq ${sku}` } }); // expect: ts/table-scan // query: table-scan
}

export async function names() {
  return products.listEntities<Product>({ queryOptions: { select: ["name"] } }); // expect: ts/table-scan // query: table-scan
}

export async function trackView(sku: string): Promise<void> {
  const events = await table("events");
  await events.createEntity({ partitionKey: moment().format("YYYYMMDD"), rowKey: `${sku}_${Date.now()}` }); // expect: ts/append-only-key
}

export async function monthly(sku: string, count: number): Promise<void> {
  const events = await table("events");
  const now = new Date();
  await events.upsertEntity({ partitionKey: `${now.getFullYear()}${String(now.getMonth() + 1).padStart(2, "0")}`, rowKey: sku, count }, "Replace"); // expect: ts/append-only-key
}

function cartFilter(user: string, since?: Date) {
  if (since) return odata`PartitionKey eq ${user} and Timestamp ge ${since}`;
  return odata`PartitionKey eq ${user}`;
}

export async function cartOf(user: string, since?: Date) {
  const carts = await table("carts");
  return carts.listEntities({ queryOptions: { filter: cartFilter(user, since) } }); // query: row-range
}

export async function addToCart(user: string, sku: string, qty: number): Promise<boolean> {
  const carts = await table("carts");
  try {
    await carts.createEntity({ partitionKey: user, rowKey: sku, qty });
    return true;
  } catch (e) {
    // Already in the cart: insert-if-absent, the caller adds to the quantity instead.
    if ((e as { statusCode?: number }).statusCode === 409) return false;
    throw e;
  }
}

export async function bump(user: string, sku: string): Promise<void> {
  const carts = await table("carts");
  const line = await carts.getEntity<{ qty: number }>(user, sku); // expect: ts/read-before-write // query: point
  await carts.updateEntity({ partitionKey: user, rowKey: sku, qty: line.qty + 1 }, "Replace");
}
