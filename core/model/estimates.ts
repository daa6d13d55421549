/**
 * Size and load estimates of a design table (`docs/language.md`, "Estimates";
 * `docs/service-facts.md`, "Counting"): the retained span, partitions, rows per
 * partition, the hottest partition's share of the data and of the moment's
 * writes, and what each access pattern costs in entities per second.
 */
import { Access, Table } from "../tdl/ast";
import { analyzeKey, KeyInfo } from "./key-parts";
import { PropertyInfo } from "./properties";
import { RetainedSpan, retainedSpan } from "./time-buckets";

export interface TableEstimates {
  rows?: number;
  entitySize?: number;
  /** Rows each entity has: its main row plus one per index. */
  rowsPerEntity: number;
  pk?: KeyInfo;
  rk?: KeyInfo;
  indexKeys: KeyInfo[];
  /** The time the table's entities stay: sizes its time buckets. */
  span?: RetainedSpan;
  /** Distinct partitions (undefined = unknown). */
  partitions?: number;
  /** Share of entities (and, for keys that do not move with time, of the traffic) on the hottest partition. */
  hotShare: number;
  /**
   * Share of the writes of one moment on the hottest partition: `hotShare`,
   * or for a key that moves with time (`KeyInfo.temporal`) the product of
   * its other parts' hottest shares, whatever the number of partitions.
   */
  writeShare: number;
  /** Entities (main rows) in an average partition. */
  entitiesPerPartition?: number;
}

export function tableEstimates(table: Table, props: ReadonlyMap<string, PropertyInfo>): TableEstimates {
  const rows = finite(table.rows?.value.value);
  const entitySize = finite(table.entitySize?.value.value);
  const span = retainedSpan(table, rows);
  const key = (expr: Parameters<typeof analyzeKey>[0]) => analyzeKey(expr, props, rows, span?.seconds);
  const pk = table.partitionKey ? key(table.partitionKey.expr) : undefined;
  const rk = table.rowKey ? key(table.rowKey.expr) : undefined;
  const indexKeys = table.indexes.map((ix) => key(ix.expr));
  const partitions = pk?.distinct !== undefined ? Math.max(1, pk.distinct) : undefined;
  const hotShare = partitions === 1 ? 1 : Math.max(pk?.hotShare ?? 0, partitions ? 1 / partitions : 0);
  return {
    rows,
    entitySize,
    rowsPerEntity: 1 + table.indexes.length,
    pk,
    rk,
    indexKeys,
    span,
    partitions,
    hotShare,
    writeShare: pk?.temporal ? pk.temporal.writeShare : hotShare,
    entitiesPerPartition: rows !== undefined && partitions ? rows / partitions : undefined,
  };
}

function finite(n: number | undefined): number | undefined {
  return n !== undefined && Number.isFinite(n) ? n : undefined;
}

/**
 * Entities a write pattern touches per second: each operation writes the
 * entity and its index rows — twice when it sets a property a key renders,
 * since the service then deletes the entity and inserts it under its new
 * key (`key/mutable-property`), as a table that spells the move out
 * (`delete` and `insert`) counts it.
 */
export function writeEntitiesPerSecond(a: Access, est: TableEstimates): number {
  if (!a.rate || a.kind === "query") return 0;
  const perOp = a.kind === "transaction" ? (finite(a.entities?.value) ?? 1) : 1;
  const keyed = [est.pk, est.rk, ...est.indexKeys];
  const moves = a.kind === "write" && !!a.sets?.some((n) => keyed.some((k) => k?.props.has(n.text)));
  return a.rate.perSecond * perOp * est.rowsPerEntity * (moves ? 2 : 1);
}

export function isFiniteNumber(n: number | null | undefined): n is number {
  return typeof n === "number" && Number.isFinite(n);
}
