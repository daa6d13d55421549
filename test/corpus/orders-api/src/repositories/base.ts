import { TableClient, TableEntityResult } from "@azure/data-tables";
import { container } from "../container";

/** Shared plumbing of every repository: the client, and reads that collect pages. */
export abstract class Repository<T extends object> {
  protected readonly client: TableClient;

  protected constructor(table: string) {
    this.client = container.table(table);
  }

  protected async all(filter?: string): Promise<Array<TableEntityResult<T>>> {
    const out: Array<TableEntityResult<T>> = [];
    for await (const e of this.client.listEntities<T>({ queryOptions: { filter } })) out.push(e); // query: unknown
    return out;
  }
}
