/**
 * Offsets ⇄ LSP positions (0-based line, UTF-16 character), by binary search
 * over line starts. As LSP says, `\r\n`, `\n` and a lone `\r` each end a line.
 */
export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(readonly text: string) {
    if (text.indexOf("\r") < 0) {
      // The common case, with the engine's fast search.
      for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) this.starts.push(i + 1);
      return;
    }
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
      if (c === 10 || c === 13) this.starts.push(i + 1);
    }
  }

  /** Number of lines (a text ending in a line end has an empty last line). */
  get lineCount(): number {
    return this.starts.length;
  }

  position(offset: number): Position {
    const o = Math.max(0, Math.min(Number.isFinite(offset) ? offset : 0, this.text.length));
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= o) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: o - this.starts[lo] };
  }

  range(start: number, end: number): Range {
    return { start: this.position(start), end: this.position(end) };
  }

  /** The offset of a position; a character past the line's end (or a line past the last) clamps to the end. */
  offset(pos: Position): number {
    if (!(pos.line >= 0)) return 0;
    if (pos.line >= this.starts.length) return this.text.length;
    const line = Math.floor(pos.line);
    const lineStart = this.starts[line];
    const character = Number.isFinite(pos.character) ? Math.max(0, Math.floor(pos.character)) : 0;
    return Math.min(lineStart + character, this.lineEnd(line));
  }

  /** The offset where `line`'s text ends, before its line end. */
  private lineEnd(line: number): number {
    if (line + 1 >= this.starts.length) return this.text.length;
    let end = this.starts[line + 1];
    if (this.text.charCodeAt(end - 1) === 10) end--;
    if (this.text.charCodeAt(end - 1) === 13) end--;
    return end;
  }
}
