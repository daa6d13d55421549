/**
 * The quick fix every finding has: silence it at this spot with
 * `// tdl-ignore-next-line CODE` on the line above (core/analysis/settings.ts
 * honours it in designs, TypeScript and JavaScript alike). The comment takes
 * the indentation of the line it silences; when the line above already is
 * such a comment listing other codes, the code joins that list instead of
 * stacking a second comment (only the line right above counts).
 *
 * Not offered for the codes whose record has the `neverSuppress` trait
 * (`internal`: the check is incomplete; `syntax`, `ts/filter-syntax`: a text
 * that does not parse is not a finding to live with) and hints (they are
 * not problems, only the query's class shown in place).
 */
import { codesWith, CORE_RECORDS, ignoredOn, LineIndex } from "@core";
import { detectEol, indentOf } from "@core/tdl/line-ends";
import { loadTsAnalysis } from "@ts-analysis/loader";

const CORE_NEVER = codesWith(CORE_RECORDS, "neverSuppress");
const CORE_CODES = new Set(CORE_RECORDS.map((r) => r.code));

/**
 * True for a code the fix is never offered for. A code no `.tdl` record has is a TypeScript rule's: its
 * diagnostic came from a TypeScript document, whose analysis (and records) are already loaded.
 */
function neverSuppressed(code: string): boolean {
  if (CORE_CODES.has(code)) return CORE_NEVER.has(code);
  return codesWith(loadTsAnalysis().TS_RULES, "neverSuppress").has(code);
}

/** One edit of the text, by offsets. */
export interface OffsetEdit {
  start: number;
  end: number;
  newText: string;
}

/** The fix's title: what it does, with the comment it writes. */
export const ignoreTitle = (code: string) => `Ignore ${code} on this line (// tdl-ignore-next-line ${code})`;

/**
 * The edit that silences `code` on `line` (0-based) of `text`; undefined when
 * it is never offered for that code, or the line above already silences it.
 */
export function ignoreEdit(text: string, line: number, code: string, lines = new LineIndex(text)): OffsetEdit | undefined {
  if (!code || /\s|,/.test(code) || neverSuppressed(code)) return undefined;
  if (line < 0 || line >= lines.lineCount) return undefined;
  const above = ignoredOn(text, lines, line - 1);
  if (above === "all" || above?.has(code)) return undefined;
  if (above) {
    // `// tdl-ignore-next-line a, b` → `…, b, code`: at the end of the comment's text, before trailing spaces.
    let end = lines.offset({ line: line - 1, character: Number.MAX_SAFE_INTEGER });
    while (end > 0 && (text[end - 1] === " " || text[end - 1] === "\t")) end--;
    return { start: end, end, newText: `, ${code}` };
  }
  const start = lines.offset({ line, character: 0 });
  return { start, end: start, newText: `${indentOf(text, start)}// tdl-ignore-next-line ${code}${detectEol(text)}` };
}
