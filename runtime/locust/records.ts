/**
 * The workers' records back into tdl's report (`tdl stress --ingest DIR`,
 * and the end of `--engine locust`): every `*.jsonl` under DIR/tdl-records
 * is read line by line into the built-in engine's Metrics — per second and
 * operation the calls, entities, errors, retries and latencies; per second
 * and partition the entities served, throttled and new — and the report is
 * built by the same code (runtime/stress/report.ts). A line that cannot be
 * read is left out and counted; the clock is the workers' own (their
 * earliest start is the run's start).
 */
import { createReadStream, existsSync, readdirSync } from "node:fs";
import * as path from "node:path";
import { createInterface } from "node:readline";
import { OP_TYPES, type OpType, type StressReport } from "@protocol/stress-report";
import { InputError } from "@core/errors";
import { Metrics } from "../stress/metrics";
import { buildReport } from "../stress/report";
import type { Work } from "../stress/workload";
import type { RunMeta } from "./plan";
import { formatCount, plural } from "@core/text/words";

/** Where the workers write, inside the run's folder (TDL_RECORDS). */
export const RECORDS_DIR = "tdl-records";

type Line = Record<string, unknown>;

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : 0);
const counts = (v: unknown): Record<string, number> =>
  v && typeof v === "object" ? Object.fromEntries(Object.entries(v as object).filter(([, n]) => typeof n === "number" && n > 0)) : {};

/** The record files of a run folder (DIR/tdl-records, or DIR itself when it holds them). */
export function recordFiles(dir: string): string[] {
  const inner = path.join(dir, RECORDS_DIR);
  const where = existsSync(inner) ? inner : dir;
  return readdirSync(where)
    .filter((f) => f.endsWith(".jsonl"))
    .sort()
    .map((f) => path.join(where, f));
}

/** What the records said besides the metrics they filled. */
export interface RecordsRead {
  /** From the earliest worker's start to the latest one's stop. */
  durationMs: number;
  pace?: { callsPerSecond: number; sent: number; dropped: number };
  files: number;
  skippedLines: number;
  notes: string[];
  /** Workers that began their load and never recorded its end (stopped, killed, cut off), in sentences. */
  invalid: string[];
}

/** Reads every worker's records in `dir` into `metrics` (started at 0); `workers`, when known, is how many should have run. */
export async function absorbRecords(dir: string, metrics: Metrics, workers?: number): Promise<RecordsRead> {
  const files = recordFiles(dir);
  if (!files.length) throw new InputError(`${dir} holds no worker records (${RECORDS_DIR}/*.jsonl): the run wrote none`);
  const lines: Line[] = [];
  let skipped = 0;
  for (const file of files) {
    const rl = createInterface({ input: createReadStream(file, "utf8"), crlfDelay: Infinity });
    for await (const text of rl) {
      if (!text.trim()) continue;
      try {
        const line = JSON.parse(text) as unknown;
        if (line && typeof line === "object" && !Array.isArray(line)) lines.push(line as Line);
        else skipped++;
      } catch {
        skipped++;
      }
    }
  }
  const starts = lines.filter((l) => typeof l.start === "number").map((l) => l.start as number);
  if (!starts.length) throw new InputError(`the records in ${dir} hold no start of a run: no worker began its load`);
  const t0 = Math.min(...starts);
  const stops = lines.filter((l) => typeof l.stop === "number").map((l) => l.stop as number);
  const end = stops.length ? Math.max(...stops) : Math.max(...lines.map((l) => num(l.t) + 1));
  absorbLines(lines, metrics, t0);
  const paces = lines.map((l) => l.pace as Line | undefined).filter((p): p is Line => !!p && typeof p === "object");
  const pace = paces.length
    ? {
        callsPerSecond: Math.round(paces.reduce((s, p) => s + num(p.perSecond), 0) * 100) / 100,
        sent: paces.reduce((s, p) => s + num(p.sent), 0),
        dropped: paces.reduce((s, p) => s + num(p.dropped), 0),
      }
    : undefined;
  const notes: string[] = [];
  if (skipped) notes.push(`Left out ${plural(skipped, "record line")} that could not be read.`);
  if (pace && pace.dropped > Math.max(5, 0.1 * (pace.sent + pace.dropped)))
    notes.push(
      `The Locust workers could not keep the pace: ${formatCount(pace.dropped)} of ${formatCount(pace.sent + pace.dropped)} calls could not start on time, so the load was lighter than planned.`,
    );
  return {
    durationMs: Math.max(1, (end - t0) * 1000),
    pace,
    files: files.length,
    skippedLines: skipped,
    notes,
    invalid: unfinished(lines, t0, end, workers),
  };
}

/**
 * The workers whose records hold a start and no stop: each stopped sending
 * at its last recorded second, and the load after it was not the plan's.
 */
function unfinished(lines: Line[], t0: number, end: number, workers?: number): string[] {
  const started = new Set<string>();
  const stopped = new Set<string>();
  const last = new Map<string, number>();
  for (const l of lines) {
    const w = typeof l.w === "string" ? l.w : undefined;
    if (w === undefined) continue;
    if (typeof l.start === "number") started.add(w);
    if (typeof l.stop === "number") stopped.add(w);
    if (typeof l.t === "number") last.set(w, Math.max(last.get(w) ?? l.t, l.t));
  }
  const total = Math.max(1, Math.round(end - t0));
  const missing =
    workers !== undefined && started.size < workers
      ? [`only ${started.size} of ${plural(workers, "Locust worker")} began the load (the others stopped before it)`]
      : [];
  return missing.concat(
    [...started]
      .filter((w) => !stopped.has(w))
      .sort()
      .map((w) => {
        const t = last.get(w);
        const at =
          t === undefined ? "before its first second" : `after second ${Math.min(total, Math.max(1, Math.round(t + 1 - t0)))} of ${total}`;
        return `Locust worker ${w} stopped sending ${at} (its records end without the end of its run)`;
      }),
  );
}

function absorbLines(lines: Line[], metrics: Metrics, t0: number): void {
  const atMs = (t: unknown) => Math.max(0, (num(t) + 0.5 - t0) * 1000);
  const inserts = new Map<number, Array<[string, number]>>();
  for (const l of lines) {
    if (typeof l.preloaded === "number" && typeof l.min === "string" && typeof l.max === "string") {
      metrics.inserted(l.min, 0, false);
      metrics.inserted(l.max, 0, false);
    } else if (typeof l.pk === "string") {
      if (num(l.e)) metrics.touched(l.pk, num(l.e));
      if (num(l.th)) metrics.refusedAt(l.pk, num(l.th));
      if (num(l.new)) {
        const at = inserts.get(num(l.t)) ?? [];
        at.push([l.pk, num(l.new)]);
        inserts.set(num(l.t), at);
      }
    } else if (typeof l.op === "string" && (OP_TYPES as string[]).includes(l.op)) {
      metrics.absorb(l.op as OpType, atMs(l.t), {
        requests: num(l.n),
        entities: num(l.e),
        retries: num(l.r),
        scanned: num(l.sc),
        pages: num(l.pg),
        errors: counts(l.err),
        codes: counts(l.codes),
        latencyUs: Object.entries(counts(l.lat)).map(([us, n]) => [Number(us), n] as [number, number]),
      });
    } else if (typeof l.src === "string") {
      metrics.calledTimes(l.src, num(l.calls), num(l.failed));
      // Records of older runs have no `th`: their per-pattern throttling stays unknown ("–"), not 0.
      if (typeof l.th === "number") metrics.throttledCalls(l.src, l.th);
    } else if (l.throttled && typeof l.throttled === "object") {
      const th = l.throttled as Line;
      metrics.throttled.partition += num(th.partition);
      metrics.throttled.account += num(th.account);
    }
  }
  // New keys in the order they came: second by second, and in key order within a second (the records keep no finer order).
  for (const t of [...inserts.keys()].sort((a, b) => a - b))
    for (const [pk, n] of inserts.get(t)!.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) metrics.inserted(pk, n);
}

/** The report of the records in `dir` (`tdl stress --ingest`), measured for the run `meta` describes. */
export async function reportFromRecords(dir: string, meta: RunMeta): Promise<StressReport> {
  const metrics = new Metrics(0);
  const read = await absorbRecords(dir, metrics, meta.workers);
  return buildReport({
    metrics,
    durationMs: read.durationMs,
    target: meta.target,
    table: meta.table,
    design: meta.design,
    mode: meta.mode,
    concurrency: meta.users * meta.workers,
    partitionTarget: meta.calibration?.partitionTargetEntitiesPerSecond ?? meta.partitionTarget,
    notes: read.notes,
    calibration: meta.calibration,
    work: meta.work as Work[],
    skipped: meta.skipped,
    pace: read.pace,
    engine: { name: "locust", workers: meta.workers, records: read.files, skippedLines: read.skippedLines },
    invalid: read.invalid,
  });
}
