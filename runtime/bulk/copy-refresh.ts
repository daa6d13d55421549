/**
 * `tdl copy` run again after it finished reads the source again: a copy
 * that reused its first export would report success over a target that no
 * longer matches the source. The finished copy's keys are written aside
 * (`copy-previous.json`, sealed, with when that export was read) and its
 * export and checkpoint removed; the new export is imported over the keys
 * the last copy wrote; then the keys the last export held and the new one
 * does not — entities deleted from the source since — are deleted from the
 * target, and the file aside is marked done last. While it is not done a
 * rerun finishes that refresh instead of starting another, so a refresh
 * killed anywhere resumes like any job; the new export's manifest names the
 * refresh it belongs to, so the file aside gone missing is a refusal that
 * names it, never a refresh that forgets its deletions.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { createInterface } from "node:readline";
import type { AccountSession } from "../account/session";
import type { ThrottledPath } from "../net/throttled";
import { checkFinished, DamagedFolderError } from "./folder";
import { checkSeal, loadManifest, Manifest, MANIFEST, sealed, writeAtomically } from "./manifest";
import { keyOf } from "./occupied";

export const PREVIOUS = "copy-previous.json";

/** The last finished copy's keys and when its export was read: what a refresh deletes when the new export lacks them. */
export interface PreviousCopy {
  /** When the last copy's export began reading the source. */
  started: string;
  source: string;
  table: string;
  keys: string[];
  /** The refresh finished: its deletions were made (the keys are dropped). */
  done?: boolean;
}

const importState = (dir: string, table: string) => path.join(dir, `import.${table}.json`);

/** The refresh under way in `dir` (written aside by an earlier run), or undefined. */
export function previousCopy(dir: string): PreviousCopy | undefined {
  const file = path.join(dir, PREVIOUS);
  if (!fs.existsSync(file)) return undefined;
  let p: PreviousCopy & { seal?: string };
  try {
    p = JSON.parse(fs.readFileSync(file, "utf8")) as PreviousCopy & { seal?: string };
  } catch (e) {
    throw new DamagedFolderError(file, `is not a copy's list of keys (${(e as Error).message})`);
  }
  if (typeof p?.started !== "string" || !Array.isArray(p.keys)) throw new DamagedFolderError(file, "is not a copy's list of keys");
  checkSeal(file, p);
  delete p.seal;
  return p;
}

/** Whether `dir` holds a copy into `table` that finished: an export read whole, and an import of every range of it. */
export function finishedCopy(dir: string, table: string): Manifest | undefined {
  const m = loadManifest(dir);
  if (!m?.finished || !fs.existsSync(importState(dir, table))) return undefined;
  try {
    const state = JSON.parse(fs.readFileSync(importState(dir, table), "utf8")) as { ranges?: Record<string, { done?: boolean }> };
    return m.ranges.every((r) => state.ranges?.[r.file]?.done) ? m : undefined;
  } catch {
    // A checkpoint that does not parse is no finished copy: the import refuses it by name.
    return undefined;
  }
}

/** The keys of an export's range files. */
export async function exportKeys(dir: string, m: Manifest): Promise<Set<string>> {
  const keys = new Set<string>();
  for (const r of m.ranges) {
    if (!r.count) continue;
    const file = path.join(dir, r.file);
    const lines = createInterface({ input: fs.createReadStream(file, "utf8"), crlfDelay: Infinity });
    let at = 0;
    for await (const text of lines) {
      at++;
      let o: { PartitionKey?: unknown; RowKey?: unknown };
      try {
        o = JSON.parse(text) as typeof o;
      } catch {
        throw new DamagedFolderError(`${file}:${at}`, "is not an entity as the export wrote it");
      }
      keys.add(keyOf(String(o.PartitionKey), String(o.RowKey)));
    }
  }
  return keys;
}

/** Writes the finished copy's keys aside, then removes its export and checkpoint: the next export reads the source anew. */
export async function setAside(dir: string, table: string, m: Manifest): Promise<PreviousCopy> {
  // Its keys say what the refresh deletes: a folder damaged since is refused by name, never half-read.
  await checkFinished(dir, m);
  const previous: PreviousCopy = { started: m.started, source: m.source, table: m.table, keys: [...(await exportKeys(dir, m))] };
  writeAtomically(path.join(dir, PREVIOUS), sealed(previous));
  clearExport(dir, table, m);
  return previous;
}

/** Removes an export and its import checkpoint (the manifest first: without it, nothing is resumed from what is left). */
export function clearExport(dir: string, table: string, m: Manifest): void {
  fs.rmSync(path.join(dir, MANIFEST), { force: true });
  fs.rmSync(importState(dir, table), { force: true });
  for (const r of m.ranges) fs.rmSync(path.join(dir, r.file), { force: true });
}

/**
 * Deletes from the target the keys the last copy wrote that the new export
 * does not hold (deleted from the source since), one request each through
 * the job's path; one already gone is no failure. Then the list aside is marked done.
 * Returns how many were removed.
 */
export async function finishRefresh(
  dir: string,
  previous: PreviousCopy,
  now: Set<string>,
  target: AccountSession,
  table: string,
  net: ThrottledPath,
): Promise<number> {
  let removed = 0;
  for (const k of previous.keys) {
    if (now.has(k)) continue;
    if (net.signal?.aborted) return removed;
    const [partitionKey, rowKey] = JSON.parse(k) as [string, string];
    try {
      await net.send(() =>
        target.call((abortSignal) => target.clients.table(table).deleteEntity(partitionKey, rowKey, { abortSignal }), net.signal),
      );
      removed++;
    } catch (e) {
      // Cancelled: the list aside stays, and a rerun finishes from it.
      if (net.signal?.aborted) return removed;
      if ((e as { status?: number }).status !== 404) throw e;
    }
  }
  writeAtomically(path.join(dir, PREVIOUS), sealed({ ...previous, keys: [], done: true }));
  return removed;
}
