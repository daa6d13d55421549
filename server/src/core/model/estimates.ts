/**
 * Size and load estimates of a design table (`language.md`, "Estimates";
 * `service-facts.md`, "Counting"): partitions, rows per partition, the
 * hottest partition's share, and what each access pattern costs in
 * entities per second.
 */
import { Access, Table } from "../tdl/ast";
import { analyzeKey, KeyInfo } from "./key-parts";
import { PropertyInfo } from "./properties";

export interface TableEstimates {
  rows?: number;
  entitySize?: number;
  /** Rows each entity has: its main row plus one per index. */
  rowsPerEntity: number;
  pk?: KeyInfo;
  rk?: KeyInfo;
  indexKeys: KeyInfo[];
  /** Distinct partitions (undefined = unknown). */
  partitions?: number;
  /** Share of entities and traffic on the hottest partition. */
  hotShare: number;
  /** Entities (main rows) in an average partition. */
  entitiesPerPartition?: number;
}

export function tableEstimates(table: Table, props: ReadonlyMap<string, PropertyInfo>): TableEstimates {
  const rows = finite(table.rows?.value.value);
  const entitySize = finite(table.entitySize?.value.value);
  const pk = table.partitionKey ? analyzeKey(table.partitionKey.expr, props, rows) : undefined;
  const rk = table.rowKey ? analyzeKey(table.rowKey.expr, props, rows) : undefined;
  const indexKeys = table.indexes.map((ix) => analyzeKey(ix.expr, props, rows));
  const partitions = pk?.distinct !== undefined ? Math.max(1, pk.distinct) : undefined;
  return {
    rows, entitySize, rowsPerEntity: 1 + table.indexes.length, pk, rk, indexKeys, partitions,
    hotShare: partitions === 1 ? 1 : Math.max(pk?.hotShare ?? 0, partitions ? 1 / partitions : 0),
    entitiesPerPartition: rows !== undefined && partitions ? rows / partitions : undefined,
  };
}

function finite(n: number | undefined): number | undefined {
  return n !== undefined && Number.isFinite(n) ? n : undefined;
}

/** Entities a write pattern touches per second: each operation writes the entity and its index rows. */
export function writeEntitiesPerSecond(a: Access, est: TableEstimates): number {
  if (!a.rate || a.kind === "query") return 0;
  const perOp = a.kind === "transaction" ? (finite(a.entities?.value) ?? 1) : 1;
  return a.rate.perSecond * perOp * est.rowsPerEntity;
}

export function isFiniteNumber(n: number | null | undefined): n is number {
  return typeof n === "number" && Number.isFinite(n);
}
