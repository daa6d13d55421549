import { TableClient, TableServiceClient } from "@azure/data-tables";

const connection = process.env.AzureWebJobsStorage ?? "UseDevelopmentStorage=true";
const clients = new Map<string, TableClient>();

/** One client per table for the whole Functions host. */
export function getTableClient(table: string): TableClient {
  let client = clients.get(table);
  if (!client) {
    client = TableClient.fromConnectionString(connection, table, { allowInsecureConnection: true });
    clients.set(table, client);
  }
  return client;
}

export async function ensureTables(names: string[]): Promise<void> {
  const service = TableServiceClient.fromConnectionString(connection, { allowInsecureConnection: true });
  for (const name of names) await service.createTable(name).catch(() => undefined);
}
