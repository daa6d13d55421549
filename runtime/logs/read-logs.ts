/**
 * `tdl heatmap --logs PATH` and the panel's "Open a Heatmap from Storage
 * Logs…" run this: read every log file the paths name, keep the requests
 * in the time window (and table) asked, add them up in bounded memory, and
 * return the heatmap — totals per partition, cells per bucket of time.
 */
import { InputError } from "@core/errors";
import { HeatmapBuilder, OTHERS, UNATTRIBUTED } from "./heatmap";
import type { LogHeatmap, PartitionSummary, Unattributed } from "./model";
import type { LogRecord } from "./record";
import { LogReader, logFiles } from "./sources";
import { isoTime } from "./times";

export interface LogHeatmapOptions {
  /** Only requests at or after this time (ms since the epoch). */
  from?: number;
  /** Only requests before this time. */
  to?: number;
  /** Only this table (case-insensitive, as the service names tables). */
  table?: string;
  /** Stops between files (the heatmap of what was read so far is returned, and says so). */
  signal?: AbortSignal;
  /** After each file: files read, of how many, and entries so far. */
  onProgress?: (p: { files: number; of: number; lines: number }) => void;
}

/** Partitions listed (the hottest); `partitionCount` says how many there were. */
export const MAX_LISTED = 1000;

/** The heatmap of the logs below `paths`; an InputError when a path does not exist. */
export async function readLogHeatmap(paths: string | readonly string[], o: LogHeatmapOptions = {}): Promise<LogHeatmap> {
  const files: string[] = [];
  for (const p of typeof paths === "string" ? [paths] : paths) {
    try {
      files.push(...(await logFiles(p)));
    } catch (e) {
      throw new InputError(`cannot read ${p}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
  }
  const builder = new HeatmapBuilder();
  let ignored = 0;
  let filteredOut = 0;
  const table = o.table?.toLowerCase();
  const onRecord = (r: LogRecord) => {
    if ((o.from !== undefined && r.time < o.from) || (o.to !== undefined && r.time >= o.to) || (table && r.table?.toLowerCase() !== table))
      filteredOut++;
    else if (r.op === "other" && r.partitionKey === undefined) ignored++;
    else builder.add(r);
  };
  const reader = new LogReader(onRecord);
  const notes: string[] = [];
  for (let i = 0; i < files.length; i++) {
    if (o.signal?.aborted) {
      notes.push(`Stopped after ${i} of ${files.length} files: the heatmap shows what was read until then.`);
      break;
    }
    await reader.read(files[i]);
    o.onProgress?.({ files: i + 1, of: files.length, lines: reader.summary.lines });
  }
  return summarize(builder, reader, { ignored, filteredOut, notes });
}

function summarize(b: HeatmapBuilder, reader: LogReader, extra: { ignored: number; filteredOut: number; notes: string[] }): LogHeatmap {
  const peaks = b.peaks();
  const seconds = b.bucketMs / 1000;
  const all: PartitionSummary[] = [];
  const unattributed: Unattributed[] = [];
  for (const [id, p] of b.partitions) {
    if (p.partitionKey === UNATTRIBUTED) {
      unattributed.push({ table: p.table, operations: p.operations, throttled: p.throttled, byClass: p.byClass });
      continue;
    }
    if (p.partitionKey === OTHERS) continue;
    const peak = peaks.get(id);
    all.push({
      table: p.table,
      partitionKey: p.partitionKey,
      operations: p.operations,
      reads: p.reads,
      writes: p.writes,
      batches: p.batches,
      throttled: p.throttled,
      failed: p.failed,
      ...(p.requestUnits ? { requestUnits: Math.round(p.requestUnits * 100) / 100 } : {}),
      peakPerSecond: peak ? Math.round((peak.count / seconds) * 100) / 100 : 0,
      peakAt: peak ? isoTime(peak.t) : "",
      via: p.via,
    });
  }
  all.sort((x, y) => y.operations - x.operations || y.throttled - x.throttled || (x.partitionKey < y.partitionKey ? -1 : 1));
  const cells = b.seconds();
  const timeline = cells.map((s) => {
    let operations = 0;
    let throttled = 0;
    for (const c of Object.values(s.partitions)) {
      operations += c.reads + c.writes + c.throttled;
      throttled += c.throttled;
    }
    return { t: isoTime(s.t), operations, throttled };
  });
  const notes = [...extra.notes, ...notesOf(b, unattributed, all.length)];
  const folded = b.folded.partitions ? { ...b.folded } : undefined;
  const s = reader.summary;
  const read = Number.isFinite(b.minT);
  return {
    lines: s.lines,
    skipped: s.skipped,
    from: read ? isoTime(b.minT) : null,
    to: read ? isoTime(b.maxT) : null,
    bucketMs: b.bucketMs,
    bucketName: b.bucketName,
    partitions: all.slice(0, MAX_LISTED),
    partitionCount: all.length,
    unattributed,
    ignored: extra.ignored,
    filteredOut: extra.filteredOut,
    ...(folded ? { folded } : {}),
    timeline,
    seconds: cells,
    files: s.files,
    skippedExamples: s.examples,
    notes,
  };
}

function notesOf(b: HeatmapBuilder, unattributed: Unattributed[], listed: number): string[] {
  const notes: string[] = [];
  if (b.bucketName !== "second") notes.push(`The logs span too long for a cell a second: each cell is a ${b.bucketName}.`);
  const scans = unattributed.reduce((s, u) => s + u.operations, 0);
  if (scans)
    notes.push(
      `${scans.toLocaleString("en-US")} requests name no one partition (queries over several partitions, batches whose log line does not name theirs): they are counted apart, per table.`,
    );
  if (b.folded.partitions)
    notes.push(
      `${b.folded.partitions.toLocaleString("en-US")} of the coldest partitions were folded into one '#others' row per table to keep memory bounded; a partition's count may be short by at most ${b.folded.maxUndercount.toLocaleString("en-US")}.`,
    );
  if (listed > MAX_LISTED) notes.push(`The ${MAX_LISTED.toLocaleString("en-US")} busiest of ${listed.toLocaleString("en-US")} partitions are listed.`);
  return notes;
}
