/**
 * Offsets ⇄ LSP positions (0-based line, UTF-16 character), by binary search
 * over line starts.
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
    for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) this.starts.push(i + 1);
  }

  position(offset: number): Position {
    const o = Math.max(0, Math.min(offset, this.text.length));
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

  offset(pos: Position): number {
    if (pos.line >= this.starts.length) return this.text.length;
    const lineStart = this.starts[Math.max(0, pos.line)];
    const lineEnd = pos.line + 1 < this.starts.length ? this.starts[pos.line + 1] - 1 : this.text.length;
    return Math.min(lineStart + Math.max(0, pos.character), lineEnd);
  }
}
