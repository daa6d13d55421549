import { TableClient } from "@azure/data-tables";

// Next.js reloads modules in development: keep one client per table on globalThis.
const cache = globalThis as unknown as { tdlTables?: Map<string, TableClient> };

export async function table(name: "carts" | "products" | "events"): Promise<TableClient> {
  cache.tdlTables ??= new Map();
  let client = cache.tdlTables.get(name);
  if (!client) {
    client = TableClient.fromConnectionString(process.env.SHOP_STORAGE!, name);
    cache.tdlTables.set(name, client);
  }
  return client;
}

const products = TableClient.fromConnectionString(process.env.SHOP_STORAGE ?? "", "products");
export default products;
