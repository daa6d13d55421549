/**
 * Tables generated from designs for the inference tests: the stress
 * generator's entities (domains, skew, increasing values, entity size) with
 * each design's index rows added as the dual-row pattern writes them (the
 * same entity under another RowKey, in the same transaction), either as
 * sampled rows (unit tests) or written to an emulator (integration tests).
 */
import { TableClient, TableEntity } from "@azure/data-tables";
import { analyzeTdl, renderKey, TableModel } from "@core";
import { EntityGenerator } from "@runtime/stress/generator";
import { toRow } from "@runtime/account/values";
import type { EntityRow } from "@protocol/entities";

/** A deterministic uniform generator (Park–Miller), so a test sees the same table every run. */
export function seeded(seed: number): () => number {
  let s = seed % 2147483647 || 1;
  return () => (s = (s * 16807) % 2147483647) / 2147483647;
}

/** The model of `table` in `text` (throws when it is missing, which is a broken test). */
export function modelOf(text: string, table: string): TableModel {
  const tm = analyzeTdl(text).tables.find((t) => t.table.name.text === table);
  if (!tm) throw new Error(`no table ${table} in the design`);
  return tm;
}

/** `n` entities of the design, each followed by its index rows. */
export function generatedEntities(tm: TableModel, n: number, seed = 1): Array<Array<TableEntity<Record<string, unknown>>>> {
  const gen = new EntityGenerator(tm, seeded(seed));
  const out: Array<Array<TableEntity<Record<string, unknown>>>> = [];
  for (let i = 0; i < n; i++) {
    const { entity, values } = gen.next();
    const group = [entity];
    for (const ix of tm.table.indexes) group.push({ ...entity, rowKey: renderKey(ix.expr, { props: tm.props, values }) });
    out.push(group);
  }
  return out;
}

/** The same entities as a sample reads them, with Timestamps in write order (`stepMs` apart). */
export function generatedRows(tm: TableModel, n: number, seed = 1, stepMs = 3): EntityRow[] {
  const start = Date.UTC(2026, 10, 1);
  return generatedEntities(tm, n, seed).flatMap((group, i) =>
    group.map((e) => toRow({ ...e, timestamp: new Date(start + i * stepMs).toISOString() } as never)),
  );
}

/** Writes the entities into `client`'s table: each group in one transaction, up to `concurrency` at once, in order. */
export async function populate(
  client: TableClient,
  groups: Array<Array<TableEntity<Record<string, unknown>>>>,
  concurrency = 16,
): Promise<void> {
  const inFlight = new Set<Promise<unknown>>();
  for (const group of groups) {
    const p: Promise<unknown> = (
      group.length > 1 ? client.submitTransaction(group.map((e) => ["upsert", e, "Replace"])) : client.upsertEntity(group[0], "Replace")
    ).finally(() => inFlight.delete(p));
    inFlight.add(p);
    if (inFlight.size >= concurrency) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
}
