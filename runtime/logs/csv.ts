/**
 * CSV as Log Analytics exports it (RFC 4180): a header row, then one row
 * per record; a quoted field may hold commas, doubled quotes and line
 * breaks. Fed one line at a time, it never holds more than one record — a
 * stray quote that would swallow the rest of the file is cut off after
 * MAX_RECORD_LINES lines and counted as one malformed record, and reading
 * resumes at the next line.
 */
import { Malformed } from "./record";

/** Lines one record may span (a quoted field with line breaks); beyond it the record is malformed. */
export const MAX_RECORD_LINES = 64;

/** `TimeGenerated [UTC]` → `TimeGenerated`: the portal's columns carry their time zone. */
export function columnName(raw: string): string {
  return raw
    .replace(/^\ufeff/, "")
    .trim()
    .replace(/\s*\[[^\]]*\]$/, "");
}

export class CsvRows {
  private header: string[] | undefined;
  private fields: string[] = [];
  private field = "";
  private open = false;
  private lines = 0;

  /** The header row's columns, once read. */
  get columns(): readonly string[] | undefined {
    return this.header;
  }

  /**
   * One line of the file: the row it completes (an object by column), or
   * undefined (the header, a blank line, or a record still open). Throws
   * Malformed for a row whose field count is not the header's.
   */
  push(line: string): Record<string, string> | undefined {
    if (!this.open && line === "") return undefined;
    if (this.open && ++this.lines > MAX_RECORD_LINES) {
      this.reset();
      throw new Malformed(`a quoted field still open after ${MAX_RECORD_LINES} lines (a stray quote)`);
    }
    const done = this.open || line.includes('"') ? this.scan(line) : ((this.fields = line.split(",")), true);
    if (!done) return undefined;
    const fields = this.fields;
    this.reset();
    if (!this.header) {
      this.header = fields.map(columnName);
      return undefined;
    }
    if (fields.length !== this.header.length) throw new Malformed(`${fields.length} fields; the header has ${this.header.length}`);
    const row: Record<string, string> = {};
    for (let i = 0; i < fields.length; i++) row[this.header[i]] = fields[i];
    return row;
  }

  /** Whether the file ended inside a quoted field (the last record is then malformed). */
  get unfinished(): boolean {
    return this.open;
  }

  private reset(): void {
    this.fields = [];
    this.field = "";
    this.open = false;
    this.lines = 0;
  }

  /** Reads a line into the record in progress; true when the record is complete. */
  private scan(line: string): boolean {
    if (this.open) this.field += "\n";
    let quoted = this.open;
    for (let i = 0; i < line.length; i++) {
      const c = line.charCodeAt(i);
      if (quoted) {
        if (c !== 34) this.field += line[i];
        else if (line.charCodeAt(i + 1) === 34) {
          this.field += '"';
          i++;
        } else quoted = false;
      } else if (c === 34 && this.field === "") quoted = true;
      else if (c === 44 /* , */) {
        this.fields.push(this.field);
        this.field = "";
      } else this.field += line[i];
    }
    this.open = quoted;
    if (quoted) return false;
    this.fields.push(this.field);
    this.field = "";
    return true;
  }
}
