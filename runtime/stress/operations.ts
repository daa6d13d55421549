/**
 * One call of a run, prepared from a work item: its entities (keyed as the
 * mode keys them, with the design's index rows), the SDK call that sends
 * it, and what a success adds to the pool of written entities. A
 * transaction whose rows span partitions is not sent: the SDK refuses it
 * (Azure would answer 400 CommandsInBatchActOnDifferentPartitions), and the
 * run counts it as that refusal.
 */
import type { TableClient, TableEntity, TransactionAction } from "@azure/data-tables";
import type { Scalar } from "@core";
import type { EntityGenerator, GeneratedEntity } from "./generator";
import type { OpType, StressMode } from "@protocol/stress-report";
import type { Work } from "./workload";
import type { WrittenEntity, WrittenPool } from "./written";

type Entity = TableEntity<Record<string, unknown>>;

export interface Call {
  op: OpType;
  /** The partition the call addresses, when it addresses one. */
  pk?: string;
  /** Entities a success counts (reads: replaced by what came back). */
  entities: number;
  /** Sends it; reads resolve to the entities returned. */
  run(client: TableClient, abortSignal: AbortSignal): Promise<Entity[] | void>;
  /** Entities a success adds to the pool, and whether they are new (inserts, not updates). */
  written?: WrittenEntity[];
  inserted?: boolean;
  /** Not sent: the error code the service gives such a request. */
  refused?: string;
}

export interface CallContext {
  gen: EntityGenerator;
  mode: StressMode;
  /** The row-key sequence of the peak modes, shared with the preload so inserts never collide. */
  seq: { n: number };
  pool: WrittenPool;
}

/** Partitions of the spread mode. */
const SPREAD = 1024;

/**
 * The spread mode's n-th partition key, in a scattered order (an odd
 * multiplier permutes 0…1023): consecutive inserts do not walk up the key
 * order, which would make them an append-only load on one range partition.
 */
export function spreadKey(n: number): string {
  return `stress-${((n * 619) % SPREAD).toString().padStart(4, "0")}`;
}

/** The call for `w`; a read or an update with nothing written yet becomes an insert. */
export function prepare(w: Work, c: CallContext): Call {
  // Reads, updates and deletes address what was written: until something is, the run writes.
  const needsSample = w.read !== undefined || w.op === "pointRead" || w.op === "update" || w.op === "delete";
  if (needsSample && !c.pool.size) return writeCall({ op: "insert", weight: 1, batch: 1 }, c);
  switch (w.op) {
    case "insert":
      return writeCall(w, c);
    case "transaction":
      return transactionCall(w, c);
    case "update":
      return updateCall(w, c);
    case "delete": {
      const k = c.pool.take()!;
      return {
        op: "delete",
        pk: k.pk,
        entities: 1,
        run: (client, abortSignal) => client.deleteEntity(k.pk, k.rk, { abortSignal }).then(() => undefined),
      };
    }
    default:
      return readCall(w, c);
  }
}

/** Rows of one design entity: itself and its index rows. */
function rowsOf(c: CallContext, g: GeneratedEntity): Entity[] {
  return [g.entity, ...c.gen.indexRows(g)];
}

function writeCall(w: Work, c: CallContext): Call {
  const design = c.mode === "design";
  const first = c.gen.next(undefined, design);
  const generated = [first];
  const fixed = design ? c.gen.partitionValues(first.values) : undefined;
  for (let i = 1; i < w.batch; i++) generated.push(c.gen.next(fixed, design));
  if (!design) {
    const pk = c.mode === "single-partition" ? "stress-hot" : spreadKey(c.seq.n);
    for (const g of generated) {
      g.entity.partitionKey = pk;
      g.entity.rowKey = String(c.seq.n++).padStart(12, "0");
    }
  }
  const rows = generated.flatMap((g) => (design ? rowsOf(c, g) : [g.entity]));
  const upsert = w.write === "upsert";
  const written = generated.map((g) => ({ pk: g.entity.partitionKey, rk: g.entity.rowKey, values: design ? g.values : undefined }));
  const base = { op: "insert" as const, pk: rows[0].partitionKey, entities: rows.length, written, inserted: true };
  if (rows.length === 1) {
    return {
      ...base,
      run: (client, abortSignal) =>
        (upsert ? client.upsertEntity(rows[0], "Replace", { abortSignal }) : client.createEntity(rows[0], { abortSignal })).then(
          () => undefined,
        ),
    };
  }
  const actions: TransactionAction[] = rows.map((e) => (upsert ? ["upsert", e, "Replace"] : ["create", e]));
  return { ...base, run: (client, abortSignal) => client.submitTransaction(actions, { abortSignal }).then(() => undefined) };
}

/** N entities whose `sharing` properties are equal (the other properties differ), with their index rows, in one transaction. */
function transactionCall(w: Work, c: CallContext): Call {
  const first = c.gen.next();
  const shared = new Map<string, Scalar>();
  for (const name of w.sharing ?? []) if (first.values.has(name)) shared.set(name, first.values.get(name)!);
  const generated = [first];
  for (let i = 1; i < w.batch; i++) generated.push(c.gen.next(shared));
  const rows = generated.flatMap((g) => rowsOf(c, g));
  const pk = rows[0].partitionKey;
  const written = generated.map((g) => ({ pk: g.entity.partitionKey, rk: g.entity.rowKey, values: g.values }));
  const call: Call = { op: "transaction", pk, entities: rows.length, written, inserted: true, run: () => Promise.resolve() };
  if (rows.some((r) => r.partitionKey !== pk)) return { ...call, refused: "CommandsInBatchActOnDifferentPartitions" };
  const actions: TransactionAction[] = rows.map((e) => ["create", e]);
  return { ...call, run: (client, abortSignal) => client.submitTransaction(actions, { abortSignal }).then(() => undefined) };
}

/** A written entity again, with new values for every property that is not part of its keys. */
function updateCall(w: Work, c: CallContext): Call {
  const k = c.pool.pick()!;
  const entity = k.values
    ? c.gen.next(c.gen.keyValues(k.values)).entity
    : { ...c.gen.next(undefined, false).entity, partitionKey: k.pk, rowKey: k.rk };
  entity.partitionKey = k.pk;
  entity.rowKey = k.rk;
  const mode = w.write === "merge" ? "Merge" : "Replace";
  return {
    op: "update",
    pk: k.pk,
    entities: 1,
    run: (client, abortSignal) => client.updateEntity(entity, mode, { abortSignal }).then(() => undefined),
  };
}

function readCall(w: Work, c: CallContext): Call {
  if (!w.read) {
    const k = c.pool.pick()!;
    return {
      op: "pointRead",
      pk: k.pk,
      entities: 1,
      run: (client, abortSignal) => client.getEntity(k.pk, k.rk, { abortSignal }).then(() => undefined),
    };
  }
  const r = w.read.request(c.pool.pick());
  if (r.kind === "get")
    return {
      op: w.op,
      pk: r.pk,
      entities: 1,
      run: (client, abortSignal) => client.getEntity(r.pk, r.rk, { abortSignal }).then(() => undefined),
    };
  return {
    op: w.op,
    pk: r.pk,
    entities: 0,
    run: async (client, abortSignal) => {
      const pages = client
        .listEntities<Record<string, unknown>>({ abortSignal, queryOptions: r.filter ? { filter: r.filter } : undefined })
        .byPage({ maxPageSize: r.take });
      return ((await pages.next()).value ?? []) as Entity[];
    },
  };
}
