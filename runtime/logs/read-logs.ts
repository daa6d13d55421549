/**
 * `tdl heatmap --logs PATH` and the panel's "Open a Heatmap from Storage
 * Logs…" run this: read every log file the paths name, keep the requests
 * in the time window (and table) asked, add them up in bounded memory, and
 * return the heatmap — totals per partition, cells per bucket of time.
 */
import { InputError } from "@core/errors";
import { formatCount, plural } from "@core/text/words";
import type { LogHeatmap, PartitionSummary, Unattributed } from "@protocol/log-heatmap";
import { BatchLinker } from "./batches";
import { HeatmapBuilder, OTHERS, UNATTRIBUTED } from "./heatmap";
import { setBookkeepingApart } from "./probes";
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
  /** Filled with the name of every table the logs show, whatever `table` keeps (at most 1,000): a `table` they never show is a mistake the caller can name. */
  tablesSeen?: Set<string>;
  /** Stops reading (the heatmap of what was read so far is returned, and says so). */
  signal?: AbortSignal;
  /** After each file: files read, of how many, and entries so far. */
  onProgress?: (p: { files: number; of: number; lines: number }) => void;
}

/** Partitions listed (the hottest); `partitionCount` says how many there were. */
export const MAX_LISTED = 1000;
/** PartitionKey ranges listed per table (the most queried). */
const RANGES_LISTED = 5;

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
  const batches = new BatchLinker();
  const counts = { ignored: 0, filteredOut: 0, batchOperations: 0, queryPages: 0, batchesAlone: 0 };
  const table = o.table?.toLowerCase();
  const onRecord = (r: LogRecord) => {
    if (o.tablesSeen && r.table && o.tablesSeen.size < 1000) o.tablesSeen.add(r.table);
    if (
      (o.from !== undefined && r.time < o.from) ||
      (o.to !== undefined && r.time >= o.to) ||
      (table && r.table?.toLowerCase() !== table)
    ) {
      counts.filteredOut++;
      return;
    }
    const of = batches.operationOf(r);
    if (of) {
      counts.batchOperations++;
      // The batch's own line counted its first entity.
      if (of.before > 0) builder.addBatchEntity(of.batch);
      else counts.batchesAlone--;
      return;
    }
    if (r.op === "other" && r.partitionKey === undefined) return void counts.ignored++;
    if (r.op === "batch") {
      batches.batch(r);
      counts.batchesAlone++;
    }
    if (r.op === "query") counts.queryPages++;
    builder.add(r);
  };
  const reader = new LogReader(onRecord, o.signal);
  const notes: string[] = [];
  for (let i = 0; i < files.length; i++) {
    await reader.read(files[i]);
    if (o.signal?.aborted) {
      notes.push(`Stopped in file ${i + 1} of ${files.length}: the heatmap shows what was read until then.`);
      break;
    }
    o.onProgress?.({ files: i + 1, of: files.length, lines: reader.summary.lines });
  }
  const heatmap = summarize(builder, reader, { ...counts, notes });
  setBookkeepingApart(heatmap);
  return heatmap;
}

interface Extra {
  ignored: number;
  filteredOut: number;
  batchOperations: number;
  /** Query pages, each counted as one entity read. */
  queryPages: number;
  /** Batches whose operations the log did not show, each counted as one entity. */
  batchesAlone: number;
  notes: string[];
}

/**
 * Why a heatmap shows nothing, when no entry of `what` was a log record:
 * a sentence naming (`detailed`) the first files' problems or skipped
 * lines; undefined when something was read.
 */
export function nothingReadable(h: LogHeatmap, what: string, detailed = true): string | undefined {
  if (h.lines > h.skipped) return undefined;
  if (!detailed) return `nothing readable in ${what}: no line is a StorageTableLogs, $logs or Cosmos DB RU record`;
  const why = [
    ...h.files.filter((f) => f.problem).map((f) => `${f.file}: ${f.problem}`),
    ...h.skippedExamples.map((s) => `${s.file}:${s.line}: ${s.reason}`),
  ].slice(0, 3);
  return `nothing readable in ${what}: no line is a StorageTableLogs, $logs or Cosmos DB RU record${why.length ? ` (${why.join("; ")})` : ""}`;
}

function summarize(b: HeatmapBuilder, reader: LogReader, extra: Extra): LogHeatmap {
  const peaks = b.peaks();
  const seconds = b.bucketMs / 1000;
  const all: PartitionSummary[] = [];
  const unattributed: Unattributed[] = [];
  for (const [id, p] of b.partitions) {
    if (p.partitionKey === UNATTRIBUTED) {
      const ranges = [...p.ranges.values()].sort((x, y) => y.pages - x.pages).slice(0, RANGES_LISTED);
      unattributed.push({ table: p.table, operations: p.operations, throttled: p.throttled, byClass: p.byClass, ranges });
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
      entities: p.entities,
      ...(p.requestUnits ? { requestUnits: Math.round(p.requestUnits * 100) / 100 } : {}),
      peakPerSecond: peak ? Math.round((peak.count / seconds) * 100) / 100 : 0,
      peakAt: peak ? isoTime(peak.t) : "",
      via: p.via,
      ...(p.shortBy ? { shortBy: p.shortBy } : {}),
    });
  }
  const entities = (p: PartitionSummary) => p.entities.read + p.entities.written + p.entities.throttled;
  all.sort((x, y) => entities(y) - entities(x) || y.operations - x.operations || (x.partitionKey < y.partitionKey ? -1 : 1));
  const cells = b.seconds();
  const timeline = cells.map((s) => {
    let sum = 0;
    let throttled = 0;
    for (const c of Object.values(s.partitions)) {
      sum += c.reads + c.writes + c.throttled;
      throttled += c.throttled;
    }
    return { t: isoTime(s.t), entities: sum, throttled };
  });
  const notes = [...extra.notes, ...notesOf(b, unattributed, all.length, extra)];
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
    batchOperations: extra.batchOperations,
    ...(folded ? { folded } : {}),
    timeline,
    seconds: cells,
    files: s.files,
    skippedExamples: s.examples,
    notes,
  };
}

function notesOf(b: HeatmapBuilder, unattributed: Unattributed[], listed: number, extra: Extra): string[] {
  const notes: string[] = [];
  if (b.bucketName !== "second") notes.push(`The logs span too long for a cell a second: each cell is a ${b.bucketName}.`);
  if (extra.queryPages)
    notes.push(
      `${plural(extra.queryPages, "query page")} counted as one entity read each: logs do not say how many entities a page returned.`,
    );
  if (extra.batchesAlone > 0)
    notes.push(
      `${plural(extra.batchesAlone, "batch", "batches")} counted as one entity each: the log holds no line of their operations (lines with the batch's CorrelationId and an OperationCount of 1, 2…).`,
    );
  const scans = unattributed.reduce((s, u) => s + u.operations, 0);
  if (scans)
    notes.push(
      `${formatCount(scans)} requests name no one partition (queries over several partitions, batches whose log line does not name theirs): they are counted apart, per table.`,
    );
  if (b.folded.partitions)
    notes.push(
      `${formatCount(b.folded.partitions)} of the coldest partitions were folded into one '#others' row per table to keep memory bounded; a partition seen again after that may be short by what its folded row held: each such row says by how much at most (${formatCount(b.folded.maxUndercount)} at most).`,
    );
  if (listed > MAX_LISTED) notes.push(`The ${formatCount(MAX_LISTED)} busiest of ${formatCount(listed)} partitions are listed.`);
  return notes;
}
