/**
 * Reads log files — one file, or every file below a folder (a diagnostic
 * setting's `y=/m=/d=/h=/m=/PT1H.json` tree, a copy of `$logs/table/`) —
 * and hands each record to the caller as it is read. Each file's format is
 * known from its first characters: `[` a JSON array, `{` JSON lines, `1.0;`
 * Storage Analytics, anything else CSV with a header row. A line that is no
 * record is counted and skipped (the first few are kept, with file, line
 * and reason); a file that cannot be read at all is said, and the others
 * are still read.
 */
import { readdir, stat } from "node:fs/promises";
import * as path from "node:path";
import { classicRecord, looksClassic } from "./classic";
import { CsvRows } from "./csv";
import { JsonArraySplitter } from "./json-array";
import { recordsOfObject } from "./json-records";
import { chunks, linesOf } from "./lines";
import { LogRecord, Malformed } from "./record";
import type { LogFileSummary, LogFormat, SkippedLine } from "@protocol/log-heatmap";

/** What reading found. */
export interface ReadSummary {
  files: LogFileSummary[];
  /** Log entries read (lines, rows, array elements), skipped ones included. */
  lines: number;
  skipped: number;
  /** The first skipped lines (at most MAX_EXAMPLES). */
  examples: SkippedLine[];
}

const MAX_EXAMPLES = 5;
/** Files below a folder read at most (a folder of logs of years still ends). */
export const MAX_FILES = 100_000;

/** The files a path names: itself, or every file below it in name order. */
export async function logFiles(p: string): Promise<string[]> {
  const s = await stat(p);
  // A FIFO or a device (/dev/zero) would be waited on or read for ever: only files and folders are read.
  if (!s.isDirectory() && !s.isFile())
    throw Object.assign(new Error("not a regular file or a folder"), { code: "not a regular file or a folder" });
  if (!s.isDirectory()) return [p];
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (out.length >= MAX_FILES) return;
      if (e.name.startsWith(".")) continue;
      const full = path.join(dir, e.name);
      if (e.isDirectory()) await walk(full);
      else if (e.isFile()) out.push(full);
    }
  };
  await walk(p);
  return out;
}

export class LogReader {
  readonly summary: ReadSummary = { files: [], lines: 0, skipped: 0, examples: [] };

  /** `signal` stops reading (within a few thousand entries, also inside a long file). */
  constructor(
    private readonly onRecord: (r: LogRecord) => void,
    private readonly signal?: AbortSignal,
  ) {}

  /** Reads one file to its end; a failure to open or decompress it is its `problem`. */
  async read(file: string): Promise<void> {
    const entry: LogFileSummary = { file, entries: 0, skipped: 0 };
    this.summary.files.push(entry);
    try {
      await this.readFile(file, entry);
    } catch (e) {
      entry.problem = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    }
  }

  private async readFile(file: string, entry: LogFileSummary): Promise<void> {
    const it = chunks(file)[Symbol.asyncIterator]();
    let head = "";
    for (;;) {
      const n = await it.next();
      if (n.done) break;
      head += n.value;
      if (/\S/.test(head.replace(/^\ufeff/, ""))) break;
    }
    const start = head.replace(/^\ufeff/, "").trimStart();
    if (!start) return;
    const rest: AsyncIterable<string> = { [Symbol.asyncIterator]: () => it };
    const format = sniffFormat(start);
    entry.format = format;
    if (format === "json-array") return this.readArray(file, start, rest, entry);
    const csv = format === "csv" ? new CsvRows() : undefined;
    let line = 0;
    for await (const batch of linesOf(rest, start)) {
      if (this.signal?.aborted) return;
      for (const l of batch) {
        line++;
        if (l.tooLong) {
          this.entry(entry);
          this.skip(file, line, entry, "a line longer than 8 MiB");
          continue;
        }
        if (!csv && !l.text.trim()) continue;
        try {
          if (csv) {
            let row: Record<string, string> | undefined;
            try {
              row = csv.push(l.text);
            } catch (e) {
              if (!(e instanceof Malformed)) throw e;
              this.entry(entry);
              this.skip(file, line, entry, e.message);
              continue;
            }
            if (!row) continue;
            this.entry(entry);
            this.onRecord(recordsOfObject(row)[0]);
          } else if (format === "storage-analytics") {
            this.entry(entry);
            this.onRecord(classicRecord(l.text));
          } else this.objects(l.text, file, line, entry);
        } catch (e) {
          if (!(e instanceof Malformed)) throw e;
          this.skip(file, line, entry, e.message);
        }
      }
    }
    if (csv?.unfinished) {
      this.entry(entry);
      this.skip(file, line, entry, "the file ends inside a quoted field");
    }
  }

  /** A JSON line: one record, or an older blob's `{"records": [...]}` (each of its records counts as an entry). */
  private objects(text: string, file: string, line: number, entry: LogFileSummary): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.entry(entry);
      throw new Malformed("not JSON");
    }
    const records = value && typeof value === "object" && !Array.isArray(value) ? (value as { records?: unknown }).records : undefined;
    if (!Array.isArray(records)) {
      this.entry(entry);
      this.onRecord(recordsOfObject(value)[0]);
      return;
    }
    records.forEach((r, i) => {
      this.entry(entry);
      try {
        this.onRecord(recordsOfObject(r)[0]);
      } catch (e) {
        if (!(e instanceof Malformed)) throw e;
        this.skip(file, line, entry, `record ${i + 1}: ${e.message}`);
      }
    });
  }

  private async readArray(file: string, start: string, rest: AsyncIterable<string>, entry: LogFileSummary): Promise<void> {
    const splitter = new JsonArraySplitter();
    let index = 0;
    const emit = (text: string) => {
      index++;
      this.entry(entry);
      try {
        for (const r of recordsOfObject(JSON.parse(text))) this.onRecord(r);
      } catch (e) {
        if (!(e instanceof Malformed) && !(e instanceof SyntaxError)) throw e;
        this.skip(file, index, entry, `element ${index}: ${e instanceof SyntaxError ? "not JSON" : e.message}`);
      }
    };
    splitter.push(start, emit);
    for await (const chunk of rest) {
      if (splitter.done || this.signal?.aborted) break;
      splitter.push(chunk, emit);
    }
    const problem = splitter.end();
    if (problem) entry.problem = `${problem}; ${index.toLocaleString("en-US")} elements were read before it`;
  }

  private entry(entry: LogFileSummary): void {
    entry.entries++;
    this.summary.lines++;
  }

  private skip(file: string, line: number, entry: LogFileSummary, reason: string): void {
    entry.skipped++;
    this.summary.skipped++;
    if (this.summary.examples.length < MAX_EXAMPLES) this.summary.examples.push({ file, line, reason });
  }
}

/**
 * A file's format from its first lines: JSON lines when the first line is an
 * object, or when most of the lines after it are (a first line cut by a
 * truncated download or a log rotation is then skipped as one bad line, with
 * its number, not taken for a CSV header that skips every record after it).
 */
export function sniffFormat(start: string): LogFormat {
  if (start[0] === "[") return "json-array";
  if (start[0] === "{") return "json-lines";
  // The chunk's last line may be cut: only whole lines vote.
  const lines = start
    .split("\n")
    .slice(1, -1)
    .filter((l) => l.trim())
    .slice(0, 9);
  const objects = lines.filter((l) => l.trimStart().startsWith("{")).length;
  if (objects > 0 && objects * 2 >= lines.length) return "json-lines";
  return looksClassic(start) ? "storage-analytics" : "csv";
}
