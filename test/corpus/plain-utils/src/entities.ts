// An in-memory entity store with method names like the SDK's: not the SDK, nothing to report.
export interface Row { partitionKey: string; rowKey: string; [k: string]: unknown }

export class MemoryTable {
  private readonly rows = new Map<string, Row>();
  createEntity(row: Row): void {
    this.rows.set(`${row.partitionKey}\u0000${row.rowKey}`, row);
  }
  getEntity(pk: string, rk: string): Row | undefined {
    return this.rows.get(`${pk}\u0000${rk}`);
  }
  *listEntities(filter?: (r: Row) => boolean): Iterable<Row> {
    for (const r of this.rows.values()) if (!filter || filter(r)) yield r;
  }
}

export function demo(): number {
  const t = new MemoryTable();
  for (let i = 0; i < 3; i++) t.createEntity({ partitionKey: "demo", rowKey: `${i}` });
  t.getEntity("demo", "1");
  return [...t.listEntities()].length;
}
