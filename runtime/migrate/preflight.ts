/**
 * The migration's pre-flight, before anything is written: every entity of
 * the old table's export re-keyed, and each new row checked against the
 * target profile's limits (on Cosmos DB for Table a RowKey of at most 255
 * bytes, items of at most 2 MB), as `tdl copy` checks a copy. The entities
 * that cannot be re-keyed or held are listed with their file and line; the
 * new rows' identities (table, PartitionKey, RowKey) are counted and
 * checksummed — the figure `verify` compares the new tables with.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { createInterface } from "node:readline";
import { entityLimitProblems, rekey, SERVICES, type NewRow, type ServiceName, type TableMapping } from "@core";
import type { EntityRow } from "@protocol/entities";
import { REFUSE_ALL } from "@protocol/transfer";
import { readJsonObject } from "../transfer/json";
import { Problems } from "../transfer/records";
import { typeRecord } from "../transfer/typing";
import { Checksum } from "../bulk/checksum";
import type { SkippedLine } from "../bulk/import";
import type { Manifest, RangeState } from "../bulk/manifest";

/** The most failing entities listed (all are counted). */
const MAX_LISTED = 1000;

export interface Preflight {
  failing: SkippedLine[];
  count: number;
  /** The new rows of the entities that pass: how many, and the checksum of their identities. */
  identities: { count: number; checksum: string };
}

/** Each line of a range's file from `from` on (1-based lines), typed; a line that is no entity comes with why. */
export async function* exportedLines(
  dir: string,
  r: RangeState,
  from = 0,
): AsyncGenerator<{ line: number; row?: EntityRow; why?: string }> {
  const lines = createInterface({ input: fs.createReadStream(path.join(dir, r.file), "utf8"), crlfDelay: Infinity });
  let at = 0;
  for await (const text of lines) {
    if (++at <= from) continue;
    const problems = new Problems(REFUSE_ALL);
    const row = typeRecord(readJsonObject(text, at, at, problems), problems);
    yield row ? { line: at, row } : { line: at, why: problems.kept[0]?.message ?? "not an entity" };
  }
}

/** The new rows of an old entity, or why it cannot be migrated to `service`. */
export function migrated(m: TableMapping, row: EntityRow, service: ServiceName): { rows: NewRow[] } | { why: string } {
  const r = rekey(m, row);
  if ("problem" in r) return { why: r.problem };
  const profile = SERVICES[service];
  for (const n of r.rows) {
    const problems = entityLimitProblems(n, profile);
    if (problems.length)
      return {
        why: `${row.partitionKey} / ${row.rowKey} → ${n.table} ${n.partitionKey} / ${n.rowKey}: ${problems.map((p) => p.message).join("; ")}`,
      };
  }
  return r;
}

/** The identity of a new row as the checksum hashes it (its table, its keys, no properties). */
export function identityRow(n: { table: string; partitionKey: string; rowKey: string }): EntityRow {
  return { partitionKey: n.partitionKey, rowKey: n.rowKey, properties: { table: { type: "String", value: n.table } } };
}

export async function preflight(
  m: TableMapping,
  dir: string,
  manifest: Manifest,
  service: ServiceName,
  signal?: AbortSignal,
): Promise<Preflight> {
  const failing: SkippedLine[] = [];
  let count = 0;
  const sum = new Checksum();
  for (const r of manifest.ranges)
    for await (const { line, row, why } of exportedLines(dir, r)) {
      if (signal?.aborted) break;
      const result = row ? migrated(m, row, service) : { why: why! };
      if ("why" in result) {
        count++;
        if (failing.length < MAX_LISTED) failing.push({ file: r.file, line, message: result.why });
      } else for (const n of result.rows) sum.add(identityRow(n));
    }
  return { failing, count, identities: { count: sum.count, checksum: sum.hex } };
}
