import { TableClient } from "@azure/data-tables";

/** A tiny DI container: repositories ask it for their table. */
export class Container {
  private readonly tables = new Map<string, TableClient>();
  constructor(private readonly connection: string) {}

  table(name: string): TableClient {
    let t = this.tables.get(name);
    if (!t) this.tables.set(name, (t = TableClient.fromConnectionString(this.connection, name)));
    return t;
  }
}

export const container = new Container(process.env.ORDERS_STORAGE ?? "UseDevelopmentStorage=true");
