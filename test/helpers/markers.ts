/**
 * Inline markers for fixtures: `«…»` marks an expected range; the markers
 * are stripped and the ranges returned as offsets into the clean text.
 * `‸` marks a caret position.
 */
export interface Marked {
  text: string;
  ranges: Array<{ start: number; end: number }>;
  carets: number[];
}

export function marked(source: string): Marked {
  let text = "";
  const ranges: Array<{ start: number; end: number }> = [];
  const open: number[] = [];
  const carets: number[] = [];
  for (const ch of source) {
    if (ch === "«") open.push(text.length);
    else if (ch === "»") ranges.push({ start: open.pop()!, end: text.length });
    else if (ch === "‸") carets.push(text.length);
    else text += ch;
  }
  // Ranges in order of their start, as diagnostics are sorted.
  ranges.sort((a, b) => a.start - b.start || a.end - b.end);
  return { text, ranges, carets };
}

/** Applies offset edits (non-overlapping) to a text. */
export function applyEdits(text: string, edits: Array<{ start: number; end: number; newText: string }>): string {
  return [...edits].sort((a, b) => b.start - a.start).reduce((t, e) => t.slice(0, e.start) + e.newText + t.slice(e.end), text);
}
