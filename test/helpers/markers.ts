/**
 * Inline markers for fixtures: `«…»` marks an expected range; the markers
 * are stripped and the ranges returned as offsets into the clean text.
 * `‸` marks a caret position. A range may carry what is expected there in
 * one annotation right after it: `«…»‹messageId›`, or `«…»‹code:messageId›`
 * when the helper is not told the code (`«pad(No, 3)»‹key/pad-too-narrow:narrow›`).
 */
export interface MarkedRange {
  start: number;
  end: number;
  /** The code the annotation names, if any. */
  code?: string;
  /** The message id the annotation names, if any. */
  messageId?: string;
}

export interface Marked {
  text: string;
  ranges: MarkedRange[];
  carets: number[];
}

export function marked(source: string): Marked {
  let text = "";
  const ranges: MarkedRange[] = [];
  const open: number[] = [];
  const carets: number[] = [];
  const chars = [...source];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i];
    if (ch === "«") open.push(text.length);
    else if (ch === "»") {
      const range: MarkedRange = { start: open.pop()!, end: text.length };
      if (chars[i + 1] === "‹") {
        const close = chars.indexOf("›", i + 2);
        if (close < 0) throw new Error(`unclosed annotation after the range ending at ${text.length}`);
        const note = chars.slice(i + 2, close).join("");
        const colon = note.lastIndexOf(":");
        if (colon >= 0) range.code = note.slice(0, colon);
        range.messageId = note.slice(colon + 1);
        i = close;
      }
      ranges.push(range);
    } else if (ch === "‸") carets.push(text.length);
    else text += ch;
  }
  // Ranges in order of their start, as diagnostics are sorted.
  ranges.sort((a, b) => a.start - b.start || a.end - b.end);
  return { text, ranges, carets };
}

/** What the annotated ranges expect, beside what was found there: each annotation's code and message id against the finding at its range. */
export function annotated(
  m: Marked,
  found: ReadonlyArray<{ start: number; end: number; code: string; messageId?: string }>,
): { expected: unknown[]; actual: unknown[] } {
  const expected: unknown[] = [];
  const actual: unknown[] = [];
  for (const r of m.ranges) {
    if (r.messageId === undefined) continue;
    const at = found.filter((f) => f.start === r.start && f.end === r.end && (r.code === undefined || f.code === r.code));
    const text = m.text.slice(r.start, r.end);
    expected.push({ text, ...(r.code ? { code: r.code } : {}), messageId: r.messageId });
    actual.push(
      at.length
        ? {
            text,
            ...(r.code ? { code: at[0].code } : {}),
            messageId: at.map((f) => f.messageId).find((id) => id === r.messageId) ?? at[0].messageId,
          }
        : { text, missing: true },
    );
  }
  return { expected, actual };
}

/** Applies offset edits (non-overlapping) to a text. */
export function applyEdits(text: string, edits: Array<{ start: number; end: number; newText: string }>): string {
  return [...edits].sort((a, b) => b.start - a.start).reduce((t, e) => t.slice(0, e.start) + e.newText + t.slice(e.end), text);
}
