/**
 * Calibrating the emulator: on this machine every partition stays far
 * below Azure's 2,000 entities/s, so a verdict against Azure's figures
 * could never show a hot partition. A short probe measures what this
 * client and emulator serve in total — inserts of the design's entities
 * spread over many partitions, as fast as they are answered — and the run
 * then scales Azure's targets, and the design's rates, by one factor K:
 * the account target becomes half of the measured capacity (so the
 * emulator can still serve a whole account's load on a busy machine), and
 * the partition target keeps its ratio to it (2,000 : 20,000).
 */
import type { TableClient } from "@azure/data-tables";
import { narrowed, type NarrowBound, type PhaseBound } from "./bound";
import type { EntityGenerator } from "./generator";
import type { Calibration } from "@protocol/stress-report";

export type { Calibration };

/** The account target maps to this share of the measured capacity. */
export const HEADROOM = 0.5;
/** Partitions the probe spreads over. */
const PROBE_PARTITIONS = 64;
/** The probe's first moments (connections opening, code warming up) are not measured. */
const WARM_UP_MS = 250;

/** K from a measured capacity; the targets it gives. */
export function calibrationFor(capacity: number | undefined, scale: number, azure: Calibration["azure"], throttled: boolean): Calibration {
  return {
    ...(capacity !== undefined ? { capacityEntitiesPerSecond: Math.round(capacity) } : {}),
    scale,
    partitionTargetEntitiesPerSecond: round(azure.partitionTargetEntitiesPerSecond * scale),
    accountTargetEntitiesPerSecond: round(azure.accountTargetEntitiesPerSecond * scale),
    azure,
    throttled,
  };
}

/** The scale that maps Azure's account target onto `HEADROOM` of a measured capacity. */
export function scaleFor(capacity: number, accountTarget: number): number {
  return Math.max(1e-6, (HEADROOM * capacity) / accountTarget);
}

/**
 * Inserts design-sized entities under `~probe…` partition keys for
 * `WARM_UP_MS + ms`, `concurrency` at a time, counts what was answered after
 * the warm-up, then deletes what it wrote (one batch per partition, so the
 * table holds no trace of it). Returns entities/s.
 */
export async function probeCapacity(
  client: TableClient,
  gen: EntityGenerator,
  o: { concurrency: number; ms: number; bound: PhaseBound },
): Promise<number> {
  // One listener on the caller's signal, however many requests are in flight.
  const run = narrowed(o.bound);
  try {
    return await probe(client, gen, { concurrency: o.concurrency, ms: o.ms, bound: run }, o.bound.signal);
  } finally {
    run.dispose();
  }
}

async function probe(
  client: TableClient,
  gen: EntityGenerator,
  o: { concurrency: number; ms: number; bound: NarrowBound },
  caller: AbortSignal | undefined,
): Promise<number> {
  const written = new Map<string, string[]>();
  const started = performance.now();
  const from = started + WARM_UP_MS;
  const until = from + o.ms;
  let counted = 0;
  let n = 0;
  let lastError: unknown;
  const worker = async () => {
    while (performance.now() < until && !o.bound.signal.aborted) {
      const i = n++;
      const entity = {
        ...gen.next(undefined, false).entity,
        partitionKey: `~probe-${(i % PROBE_PARTITIONS).toString().padStart(2, "0")}`,
        rowKey: String(i).padStart(10, "0"),
      };
      try {
        await o.bound.request((abortSignal) => client.createEntity(entity, { abortSignal }));
        const rows = written.get(entity.partitionKey) ?? [];
        rows.push(entity.rowKey);
        written.set(entity.partitionKey, rows);
        const now = performance.now();
        if (now >= from && now <= until) counted++;
      } catch (e) {
        lastError = e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, o.concurrency) }, worker));
  await removeProbe(client, written, o.bound);
  if (caller?.aborted) return 0;
  if (!counted) throw lastError ?? new Error("the calibration probe got no answer");
  return counted / (o.ms / 1000);
}

async function removeProbe(client: TableClient, written: Map<string, string[]>, bound: PhaseBound): Promise<void> {
  const batches: Array<Array<["delete", { partitionKey: string; rowKey: string }]>> = [];
  for (const [pk, rows] of written) {
    for (let i = 0; i < rows.length; i += 100)
      batches.push(rows.slice(i, i + 100).map((rk) => ["delete", { partitionKey: pk, rowKey: rk }]));
  }
  // The table is deleted at the end of the run in any case: a batch that fails here costs nothing but a few rows in it.
  await Promise.all(
    batches.map((actions) => bound.request((abortSignal) => client.submitTransaction(actions, { abortSignal })).catch(() => undefined)),
  );
}

function round(n: number): number {
  return n >= 100 ? Math.round(n) : Math.round(n * 10) / 10;
}
