// Fixtures for the repository tests: fixed keys are what a test wants.
import { TableClient } from "@azure/data-tables";

const table = TableClient.fromConnectionString("UseDevelopmentStorage=true", "orders");

export async function seed(n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    await table.createEntity({ partitionKey: "test-customer", rowKey: String(i), status: "open", total: i * 10 });
  }
}

export async function everything() {
  const out = [];
  for await (const e of table.listEntities()) out.push(e); // expect: ts/table-scan // query: table-scan
  return out;
}
