/**
 * The order of checked fixes and what their titles say. A fix is better
 * when it leaves less behind: fewer and milder findings (an error weighs
 * 100, a warning 10, an info 1), then queries that scan less (the sum of
 * log10 of each query's entities scanned a second), then fewer requests
 * (a fan-out costs one per bucket) — and, between the findings and the
 * queries, the rows each logical write stores (an index row or a mirrored
 * table writes each entity more than once). Its title then says what it
 * leaves, what it writes more and which query it fans out, so the reader
 * chooses knowing the price.
 */
import { TdlAnalysis } from "../analysis/analyze";
import { Fix, Severity } from "../findings";
import { formatBytes } from "../tdl/numbers";
import { listNames } from "../text/words";
import { QueryState } from "./anchors";
import type { FixCheck } from "./check";

const WEIGHT: Record<Severity, number> = { error: 100, warning: 10, info: 1, hint: 0 };

/** The ordering key of a design a fix leaves: smaller is better, compared element by element. */
export function scoreOf(after: TdlAnalysis, queries: ReadonlyMap<string, QueryState>, writes?: FixCheck["writes"]): number[] {
  const weight = after.findings.reduce((s, f) => s + WEIGHT[f.severity], 0);
  let cost = 0;
  let requests = 0;
  for (const q of queries.values()) {
    cost += Math.log10(1 + (q.cost ?? 0));
    requests += q.requests;
  }
  // Rows stored per logical write: a fix that writes each entity twice comes after one that leaves as much and writes it once.
  return [weight, writes?.after ?? 0, Math.round(cost * 1000) / 1000, requests];
}

/** "the queries' … ; ByDay fans out to 16 requests; leaves nothing": the title of a checked fix. */
export function describeChecked(fix: Fix, check: FixCheck): string {
  const notes: string[] = [];
  for (const [key, change] of Object.entries(check.queries)) {
    const requests = /· (\d+) requests(?: \(in table|$)/.exec(change.split(" → ")[1] ?? "");
    const name = key.slice(key.indexOf("/") + 1);
    if (requests) notes.push(`${name} then fans out to ${requests[1]} requests`);
    else if (change.includes("(in table")) notes.push(`${name} is then read from table ${/\(in table (.*)\)$/.exec(change)?.[1] ?? ""}`);
  }
  if (check.writes) notes.push(writesNote(check.writes));
  const left = check.leaves.map((l) => `${l.code}${l.anchor.includes("/") ? ` (${l.anchor.slice(l.anchor.indexOf("/") + 1)})` : ""}`);
  const uniq = [...new Set(left)];
  notes.push(
    check.fact
      ? uniq.length
        ? `reveals ${listNames(uniq, 3)}`
        : "reveals nothing more"
      : uniq.length
        ? `leaves ${listNames(uniq, 3)}`
        : "leaves nothing to fix",
  );
  return `${fix.title}; ${notes.join("; ")}`;
}

/** "writes each entity 3 times (was once; 3 KiB a write, was 1 KiB)": the write amplification of a fix. */
function writesNote(w: NonNullable<FixCheck["writes"]>): string {
  const times = (n: number) => (n === 1 ? "once" : n === 2 ? "twice" : `${n} times`);
  const bytes = w.bytes ? `; ${formatBytes(w.bytes.after)} a write, was ${formatBytes(w.bytes.before)}` : "";
  return `writes each entity ${times(w.after)} (was ${times(w.before)}${bytes})`;
}
