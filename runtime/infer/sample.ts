/**
 * Reads a sample that represents a table, not its first page: after a
 * first page, each request goes to the widest unread gap of the
 * PartitionKey space (`PartitionKey ge 'midpoint'`), or continues a read
 * with its continuation token where the gap is no wider than a page
 * covers, so a small table is read whole and a large one in spread-out
 * pages. Properties that are large on average are left out of later reads
 * (`$select`). Requests and entities are bounded; progress is reported and
 * the caller's signal cancels between and during requests.
 */
import type { EntityRow } from "@protocol/entities";
import { stringLiteral as quote } from "@core";
import { END, logWidth, midpoint } from "./key-space";
import { formatCount } from "@core/text/words";

/** One page of a query: what `AccountSession` reads (sample-reader.ts) or a test supplies. */
export interface PageReader {
  page(
    q: { filter?: string; select?: string[]; continuationToken?: string; pageSize: number },
    signal?: AbortSignal,
  ): Promise<{ entities: EntityRow[]; continuationToken?: string }>;
}

export interface SampleOptions {
  /** Entities to read at most (default 10,000). */
  sample?: number;
  /** Requests at most (default: enough for the sample in pages of a few hundred, at least 8). */
  maxRequests?: number;
  signal?: AbortSignal;
  onProgress?: (p: { entities: number; requests: number; target: number }) => void;
}

export interface Sample {
  entities: EntityRow[];
  requests: number;
  elapsedMs: number;
  /** No part of the key space was left unread. */
  wholeTable: boolean;
  /** Estimated entities in the table (the count when whole). */
  tableRows: number;
  rowsBasis: string;
  leftOut: Array<{ name: string; averageBytes: number }>;
  /** Entities per partition, for the partitions counted in full (all of them when `countComplete`). */
  partitionCounts: Map<string, number>;
  /** The counting pass read every partition key of the table. */
  countComplete: boolean;
  /** Requests of the counting pass (included in `requests`). */
  countRequests: number;
  /** Probes that found nothing at or after their key (included in `requests`). */
  emptyProbes: number;
  cancelled: boolean;
}

/** A property whose values average more than this is left out of later reads. */
const LARGE_PROPERTY_BYTES = 1024;
/** Pages the counting pass may read, at least (the sampling budget when larger). */
const MIN_COUNT_PAGES = 40;
/** Entities a page of the counting pass asks for. */
const COUNT_PAGE = 1000;
/**
 * Probes that found nothing at or after their key, at most: they narrow the
 * key space down to where the keys are (keys that share a long prefix take
 * a few halvings per character) and cost a tiny response each, so they do
 * not count against the sampling requests.
 */
const MAX_EMPTY_PROBES = 64;

interface Interval {
  /** First PartitionKey the read covers (inclusive). */
  start: string;
  /** Last PartitionKey read; END when the read reached the table's end. */
  end: string;
  /** How to read on after `end`, when there is more. */
  next?: { filter?: string; token: string };
  /** Probes into the gap before this interval that found nothing new; from two on, read on with tokens there. */
  dry?: number;
}

/** Reads a spread-out sample of a table. */
export async function sampleTable(reader: PageReader, o: SampleOptions = {}): Promise<Sample> {
  const target = Math.max(1, Math.floor(o.sample ?? 10_000));
  const maxRequests = Math.max(2, Math.floor(o.maxRequests ?? Math.max(8, Math.ceil(target / 250))));
  const pageSize = Math.min(1000, Math.max(50, Math.ceil((1.5 * target) / maxRequests)));
  const started = performance.now();
  const entities: EntityRow[] = [];
  const seen = new Set<string>();
  let requests = 0;
  let emptyProbes = 0;
  /** Characters the PartitionKeys read so far use: probes split gaps by them. */
  const chars = new Set<number>();
  let select: string[] | undefined = undefined;
  const leftOut: Sample["leftOut"] = [];
  const pageWidths: number[] = [];

  const read = async (q: { filter?: string; continuationToken?: string }) => {
    requests++;
    const page = await reader.page({ ...q, select, pageSize: Math.min(pageSize, Math.max(1, target - entities.length)) }, o.signal);
    let fresh = 0;
    for (const e of page.entities) {
      for (let i = 0; i < e.partitionKey.length && i < 64; i++) chars.add(e.partitionKey.charCodeAt(i));
      const id = `${e.partitionKey}\u0000${e.rowKey}`;
      if (seen.has(id)) continue;
      seen.add(id);
      entities.push(e);
      fresh++;
    }
    o.onProgress?.({ entities: entities.length, requests, target });
    const first = page.entities[0]?.partitionKey;
    const last = page.entities[page.entities.length - 1]?.partitionKey;
    if (first !== undefined && last !== undefined && first < last) pageWidths.push(logWidth(first, last));
    return { page, fresh, first, last };
  };

  const firstRead = await read({}).catch((e: unknown) => {
    throw o.signal?.aborted ? new DOMException("cancelled before any entity was read", "AbortError") : e;
  });
  const intervals: Interval[] = [
    {
      start: "",
      end: firstRead.page.continuationToken ? (firstRead.last ?? "") : END,
      next: token(undefined, firstRead.page.continuationToken),
    },
  ];
  select = chooseSelect(entities, leftOut);
  let cancelled = false;
  while (entities.length < target && requests - emptyProbes < maxRequests) {
    if (o.signal?.aborted) {
      cancelled = true;
      break;
    }
    const gap = widestGap(intervals);
    if (!gap) break;
    try {
      await step(gap);
    } catch (e) {
      // Cancelled mid-request: what was read so far is still a sample.
      if (o.signal?.aborted) {
        cancelled = true;
        break;
      }
      throw e;
    }
    merge(intervals);
  }
  async function step(gap: { index: number; to: string; width: number }): Promise<void> {
    const left = intervals[gap.index];
    const typical = pageWidths.length ? pageWidths.reduce((s, w) => s + w, 0) / pageWidths.length : -Infinity;
    const probing = gap.width > typical && (intervals[gap.index + 1]?.dry ?? 0) < 2 && emptyProbes < MAX_EMPTY_PROBES;
    const mid = probing
      ? midpoint(
          left.end,
          gap.to,
          [...chars].sort((x, y) => x - y),
        )
      : undefined;
    if (mid === undefined) {
      // Continue where the left read stopped: exact adjacency, nothing read twice.
      const r = await read({ filter: left.next!.filter, continuationToken: left.next!.token });
      // Without a token the read reached the table's end (its filter only bounds it from below).
      left.end = r.page.continuationToken ? (r.last ?? left.end) : END;
      left.next = token(left.next!.filter, r.page.continuationToken);
    } else {
      const filter = `PartitionKey ge ${quote(mid)}`;
      const r = await read({ filter });
      const probe: Interval = {
        start: mid,
        end: r.page.continuationToken ? (r.last ?? mid) : END,
        next: token(filter, r.page.continuationToken),
      };
      // Nothing at or after `mid`: the table ends before it, and the gap narrows for free.
      if (!r.page.entities.length && !r.page.continuationToken) emptyProbes++;
      else if (!r.fresh) probe.dry = (intervals[gap.index + 1]?.dry ?? 0) + 1;
      intervals.splice(gap.index + 1, 0, probe);
    }
  }
  const wholeTable = !cancelled && !widestGap(intervals);
  const before = requests;
  let counts: Counts | undefined;
  if (wholeTable) counts = { complete: true, rows: entities.length, partitions: partitionsOf(entities) };
  else if (!cancelled) {
    const highest = entities.reduce((m, e) => (e.partitionKey > m ? e.partitionKey : m), "");
    counts = await countRows(reader, Math.max(MIN_COUNT_PAGES, maxRequests), highest, o.signal, () => requests++).catch((e: unknown) => {
      if (o.signal?.aborted) return undefined;
      throw e;
    });
  }
  const basis = wholeTable
    ? "counted: the whole table was read"
    : counts?.complete
      ? `counted (PartitionKey only, ${requests - before} requests)`
      : counts
        ? `at least ${formatCount(counts.counted!)} counted in ${requests - before} requests; the rest extrapolated over the key space (low confidence)`
        : `at least ${formatCount(entities.length)}: reading was cancelled`;
  return {
    entities,
    requests,
    elapsedMs: performance.now() - started,
    wholeTable,
    tableRows: counts?.rows ?? entities.length,
    rowsBasis: basis,
    leftOut,
    partitionCounts: counts?.partitions ?? new Map(),
    countComplete: counts?.complete ?? false,
    countRequests: requests - before,
    emptyProbes,
    cancelled,
  };
}

function token(filter: string | undefined, t: string | undefined): Interval["next"] {
  return t ? { filter, token: t } : undefined;
}

/** `$select` for later reads: every property seen but those large on average (their size is kept for the entity size). */
function chooseSelect(entities: readonly EntityRow[], leftOut: Array<{ name: string; averageBytes: number }>): string[] | undefined {
  const bytes = new Map<string, number>();
  for (const e of entities)
    for (const [k, v] of Object.entries(e.properties)) bytes.set(k, (bytes.get(k) ?? 0) + 8 + 2 * k.length + 2 * v.value.length);
  const large = [...bytes].filter(([, b]) => b / Math.max(1, entities.length) > LARGE_PROPERTY_BYTES);
  if (!large.length) return undefined;
  for (const [name, b] of large) leftOut.push({ name, averageBytes: b / entities.length });
  return ["PartitionKey", "RowKey", "Timestamp", ...[...bytes.keys()].filter((k) => !large.some(([n]) => n === k))];
}

/** The widest part of the key space not read yet: after an interval that has more to read. */
function widestGap(intervals: readonly Interval[]): { index: number; to: string; width: number } | undefined {
  let best: { index: number; to: string; width: number } | undefined;
  intervals.forEach((iv, i) => {
    if (!iv.next) return;
    const to = intervals[i + 1]?.start ?? END;
    const width = logWidth(iv.end, to);
    if (!best || width > best.width) best = { index: i, to, width };
  });
  return best;
}

/** Joins intervals that touch or overlap (a continued read reached the next probe's start). */
function merge(intervals: Interval[]): void {
  intervals.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  for (let i = 0; i + 1 < intervals.length;) {
    const a = intervals[i];
    const b = intervals[i + 1];
    // a's read went past b's start, or a is exhausted up to b (nothing lies between them).
    if (a.end > b.start || (!a.next && a.end >= b.start) || (a.next === undefined && a.end === END)) {
      if (b.end > a.end || (b.end === a.end && !b.next)) {
        a.end = b.end;
        a.next = b.next;
      }
      a.dry = Math.max(a.dry ?? 0, b.dry ?? 0) || undefined;
      intervals.splice(i + 1, 1);
    } else i++;
  }
}

function partitionsOf(entities: readonly EntityRow[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const e of entities) out.set(e.partitionKey, (out.get(e.partitionKey) ?? 0) + 1);
  return out;
}

/**
 * Counts the table's entities per partition, reading only PartitionKey, in
 * at most `budget` pages: exact when it finishes; otherwise a lower bound,
 * extrapolated over the key space up to the largest sampled key.
 */
async function countRows(
  reader: PageReader,
  budget: number,
  highest: string,
  signal: AbortSignal | undefined,
  spent: () => void,
): Promise<Counts> {
  const partitions = new Map<string, number>();
  let rows = 0;
  let token: string | undefined;
  let last = "";
  let first: string | undefined;
  do {
    if (budget-- <= 0 || signal?.aborted) break;
    spent();
    const page = await reader.page({ select: ["PartitionKey"], continuationToken: token, pageSize: COUNT_PAGE }, signal);
    for (const e of page.entities) {
      partitions.set(e.partitionKey, (partitions.get(e.partitionKey) ?? 0) + 1);
      first ??= e.partitionKey;
      last = e.partitionKey;
    }
    rows += page.entities.length;
    token = page.continuationToken;
  } while (token);
  if (!token && !signal?.aborted) return { complete: true, rows, partitions };
  // The partition the count stopped in is not complete.
  partitions.delete(last);
  const covered = first !== undefined && first < last ? 10 ** logWidth(first, last) : 0;
  const open = last < highest ? 10 ** logWidth(last, highest) : 0;
  const estimate = covered > 0 ? Math.round(rows * (1 + open / covered)) : rows;
  return { complete: false, rows: Math.max(rows, estimate), partitions, counted: rows };
}

interface Counts {
  complete: boolean;
  rows: number;
  /** Entities per partition, for the partitions counted in full. */
  partitions: Map<string, number>;
  /** Entities counted before the budget ran out. */
  counted?: number;
}
