/**
 * `tdl migrate verify`: the old table and the new ones compared entity by
 * entity through the key mapping. The new tables are read whole (keys and
 * properties); then each old entity is re-keyed and each of its new rows
 * looked up: absent is *missing*, there with other properties is
 * *different*; a new row no old entity maps to is *extra*. With `repair`,
 * each difference is resolved toward the newer write: a missing row is
 * inserted where still absent; an extra row (its old entity was deleted:
 * the dual writes delete the old row first) is deleted by its ETag; of a
 * different entity, the newest of its rows (by Timestamp) is written over
 * the others, each guarded by the ETag read, so a write that lands after
 * the comparison is never overwritten.
 */
import { rekey, SERVICES, type NewRow, type ServiceName, type TableMapping } from "@core";
import type { EntityRow, TypedValue } from "@protocol/entities";
import type { AccountSession } from "../account/session";
import { jobPaths } from "../bulk/pace";
import { eachPage } from "../bulk/requests";
import type { RetryNotice, ThrottledPath } from "../net/throttled";
import type { MigrationTarget } from "./backfill";
import { deleteIfMatch, insertIfAbsent, writeIfUnchanged } from "./writes";

export type DifferenceKind = "missing" | "extra" | "different" | "unmapped";

export interface Difference {
  kind: DifferenceKind;
  /** The new table (the old one for `unmapped`), and the row's keys. */
  table: string;
  partitionKey: string;
  rowKey: string;
  /** What differs, in words. */
  detail: string;
  /** With --repair: what was done. */
  repaired?: string;
}

export interface VerifyReport {
  oldEntities: number;
  newRows: number;
  differences: Difference[];
  /** Differences by kind. */
  counts: Record<DifferenceKind, number>;
  repaired: number;
}

export interface VerifyOptions {
  source: AccountSession;
  sourceTable: string;
  mapping: TableMapping;
  targets: readonly MigrationTarget[];
  targetService: ServiceName;
  repair?: boolean;
  share?: number;
  rate?: number;
  signal?: AbortSignal;
  onRetry?: (n: RetryNotice) => void;
  onProgress?: (p: { phase: "read new" | "compare"; done: number }) => void;
}

const idOf = (table: string, pk: string, rk: string) => JSON.stringify([table, pk, rk]);

/** Properties as one comparable text: names sorted, each with its type. */
function propsText(p: Record<string, Pick<TypedValue, "value"> & { type: string }>): string {
  return JSON.stringify(
    Object.keys(p)
      .sort()
      .map((k) => [k, p[k].type, p[k].value]),
  );
}

export async function verifyMigration(o: VerifyOptions): Promise<VerifyReport> {
  const { path: net } = jobPaths(SERVICES[o.targetService], o);
  const rows = new Map<string, EntityRow & { table: string }>();
  for (const t of o.targets)
    await readAll(t.session, t.table, net, (e) => {
      rows.set(idOf(t.design, e.partitionKey, e.rowKey), { ...e, table: t.design });
      o.onProgress?.({ phase: "read new", done: rows.size });
    });
  const newRows = rows.size;
  const byDesign = new Map(o.targets.map((t) => [t.design, t]));
  const differences: Difference[] = [];
  let oldEntities = 0;
  let repaired = 0;
  const olds: EntityRow[] = [];
  await readAll(o.source, o.sourceTable, net, (e) => olds.push(e));
  for (const old of olds) {
    if (o.signal?.aborted) break;
    oldEntities++;
    const r = rekey(o.mapping, old);
    if ("problem" in r) {
      differences.push({ kind: "unmapped", table: o.sourceTable, partitionKey: old.partitionKey, rowKey: old.rowKey, detail: r.problem });
      continue;
    }
    const found = r.rows.map((n) => {
      const id = idOf(n.table, n.partitionKey, n.rowKey);
      const there = rows.get(id);
      rows.delete(id);
      return { n, there };
    });
    const missing = found.filter((f) => !f.there);
    const differ = found.filter((f) => f.there && propsText(f.there.properties) !== propsText(f.n.properties));
    for (const f of missing) {
      const d: Difference = {
        kind: "missing",
        table: f.n.table,
        partitionKey: f.n.partitionKey,
        rowKey: f.n.rowKey,
        detail: `no row for ${old.partitionKey} / ${old.rowKey}`,
      };
      if (o.repair) {
        const t = byDesign.get(f.n.table)!;
        const wrote = await net.send(() => insertIfAbsent(t.session, t.table, f.n, o.signal));
        d.repaired = wrote ? "inserted" : "left: a row appeared meanwhile";
        if (wrote) repaired++;
      }
      differences.push(d);
    }
    if (differ.length) {
      const repairs = o.repair ? await repairNewest(o, old, found, byDesign, net) : undefined;
      for (const f of differ) {
        differences.push({
          kind: "different",
          table: f.n.table,
          partitionKey: f.n.partitionKey,
          rowKey: f.n.rowKey,
          detail: `its properties differ from ${old.partitionKey} / ${old.rowKey}'s (Timestamps ${old.timestamp ?? "?"} old, ${f.there!.timestamp ?? "?"} new)`,
          repaired: repairs?.text,
        });
      }
      // One repair rewrites every row of the entity: each differing row is resolved by it.
      if (repairs?.wrote) repaired += differ.length;
    }
    o.onProgress?.({ phase: "compare", done: oldEntities });
  }
  for (const extra of rows.values()) {
    const d: Difference = {
      kind: "extra",
      table: extra.table,
      partitionKey: extra.partitionKey,
      rowKey: extra.rowKey,
      detail: "no old entity maps to it",
    };
    if (o.repair) {
      const t = byDesign.get(extra.table)!;
      const gone = await net.send(() => deleteIfMatch(t.session, t.table, extra, extra.etag ?? "*", o.signal));
      d.repaired = gone ? "deleted" : "left: it changed meanwhile";
      if (gone) repaired++;
    }
    differences.push(d);
  }
  const counts: Record<DifferenceKind, number> = { missing: 0, extra: 0, different: 0, unmapped: 0 };
  for (const d of differences) counts[d.kind]++;
  return { oldEntities, newRows, differences, counts, repaired };
}

/** The newest of an entity's rows written over the others (each by its ETag); what was done, in words. */
async function repairNewest(
  o: VerifyOptions,
  old: EntityRow,
  found: ReadonlyArray<{ n: NewRow; there?: EntityRow }>,
  byDesign: ReadonlyMap<string, MigrationTarget>,
  net: ThrottledPath,
): Promise<{ text: string; wrote: number }> {
  const candidates = [old, ...found.flatMap((f) => (f.there ? [f.there] : []))];
  const newest = candidates.reduce((a, b) => ((b.timestamp ?? "") > (a.timestamp ?? "") ? b : a));
  const props: NewRow["properties"] = newest.properties;
  const text = propsText(props);
  let wrote = 0;
  if (newest !== old && propsText(old.properties) !== text) {
    const ok = await net.send(() => writeIfUnchanged(o.source, o.sourceTable, { ...old, properties: props }, old.etag ?? "*", o.signal));
    if (ok) wrote++;
  }
  for (const f of found) {
    if (!f.there || propsText(f.there.properties) === text) continue;
    const t = byDesign.get(f.n.table)!;
    // The old entity's values re-keyed carry what its keys gave back; a new row's are already whole.
    const row = newest === old ? f.n : { partitionKey: f.n.partitionKey, rowKey: f.n.rowKey, properties: props };
    if (await net.send(() => writeIfUnchanged(t.session, t.table, row, f.there!.etag ?? "*", o.signal))) wrote++;
  }
  const from = `the newest (${newest === old ? "the old entity" : "a new row"}, ${newest.timestamp ?? "no Timestamp"})`;
  return { text: wrote ? `${wrote} row${wrote === 1 ? "" : "s"} rewritten from ${from}` : `left: each row changed meanwhile`, wrote };
}

async function readAll(session: AccountSession, table: string, net: ThrottledPath, each: (e: EntityRow) => void): Promise<void> {
  try {
    await eachPage(session, table, net, {}, (page) => page.forEach(each));
  } catch (e) {
    // A new table not created yet holds nothing: every row is missing.
    if ((e as { status?: number }).status !== 404) throw e;
  }
}
