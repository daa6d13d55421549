/**
 * An import into a table that already holds some of the export's keys is a
 * choice, never a silent overwrite: `fail` (the default) refuses before the
 * first write and says how many; `skip` keeps the entities there; `replace`
 * writes the export's entity whole over them; `merge` merges the export's
 * properties into them. The keys there are found range by range: the
 * target's keys of a range are read (keys only), and only when there are
 * any is the range's file read to match them.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { createInterface } from "node:readline";
import type { AccountSession } from "../account/session";
import type { ThrottledPath } from "../net/throttled";
import type { Manifest } from "./manifest";
import { rangeFilter } from "./ranges";
import { eachPage } from "./requests";

export const IF_EXISTS = ["fail", "skip", "replace", "merge"] as const;
export type IfExists = (typeof IF_EXISTS)[number];

/** An entity's keys as one string (a NUL cannot be in a key's JSON-less form twice ambiguously: it is escaped by JSON). */
export const keyOf = (partitionKey: string, rowKey: string) => JSON.stringify([partitionKey, rowKey]);

/** The export's keys the target table holds already (none when the table does not exist). */
export async function existingKeys(
  session: AccountSession,
  table: string,
  dir: string,
  m: Manifest,
  net: ThrottledPath,
): Promise<Set<string>> {
  const found = new Set<string>();
  for (const r of m.ranges) {
    if (!r.count) continue;
    const there = new Set<string>();
    try {
      await eachPage(session, table, net, { filter: rangeFilter(r), select: ["PartitionKey", "RowKey"] }, (page) => {
        for (const e of page) there.add(keyOf(e.partitionKey, e.rowKey));
      });
    } catch (e) {
      if ((e as { status?: number }).status === 404) return found;
      throw e;
    }
    if (!there.size) continue;
    const lines = createInterface({ input: fs.createReadStream(path.join(dir, r.file), "utf8"), crlfDelay: Infinity });
    for await (const text of lines) {
      try {
        const o = JSON.parse(text) as { PartitionKey?: unknown; RowKey?: unknown };
        const k = keyOf(String(o.PartitionKey), String(o.RowKey));
        if (there.has(k)) found.add(k);
      } catch {
        // The folder was checked whole before: a line that does not parse is not there.
      }
    }
  }
  return found;
}

/** What happens to the keys there, in words, for a dry run and a refusal. */
export function occupiedSentence(existing: number, total: number, table: string, mode: IfExists): string {
  const n = `${existing.toLocaleString("en-US")} of the export's ${total.toLocaleString("en-US")} keys already exist in ${table}`;
  switch (mode) {
    case "fail":
      return `${n}: nothing is written (--if-exists skip keeps them, replace writes the export's entities whole over them, merge merges the export's properties into them)`;
    case "skip":
      return `${n}: they are kept as they are, the others written (--if-exists skip)`;
    case "replace":
      return `${n}: each is replaced whole by the export's (--if-exists replace; properties only the table has are lost)`;
    case "merge":
      return `${n}: the export's properties are merged into each (--if-exists merge)`;
  }
}
