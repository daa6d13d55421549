/**
 * What the user decided about findings: per-rule severities (the
 * `tableDesign.rules` setting, `tdl check --rule code=level`) and the
 * `// tdl-ignore-next-line code[, code…]` comment that silences one spot.
 * Applied after the rules ran, to the findings of `.tdl` designs and of
 * TypeScript and JavaScript files alike.
 */
import { Finding } from "../findings";
import { RuleLevel } from "../options";
import { LineIndex } from "../positions";
import { isLineBreak } from "../tdl/line-ends";

const MARKER = "tdl-ignore-next-line";

/**
 * The codes a `// tdl-ignore-next-line` comment on `line` silences: the
 * listed ones, or every code when it lists none; undefined when the line is
 * not such a comment. Read from the line's own text, without a regex.
 */
export function ignoredOn(text: string, lines: LineIndex, line: number): Set<string> | "all" | undefined {
  if (line < 0) return undefined;
  const start = lines.offset({ line, character: 0 });
  let end = start;
  while (end < text.length && !isLineBreak(text.charCodeAt(end))) end++;
  const content = text.slice(start, end).trim();
  if (!content.startsWith("//")) return undefined;
  const body = content.slice(2).trim();
  if (!body.startsWith(MARKER)) return undefined;
  const rest = body.slice(MARKER.length);
  if (rest && !/^[\s,]/.test(rest)) return undefined;
  const codes = rest.split(/[\s,]+/).filter(Boolean);
  return codes.length ? new Set(codes) : "all";
}

/**
 * The findings as the user wants them: each code's level from `levels`
 * (`off` drops it), and none on a line after a matching ignore comment.
 * `internal` is never silenced: it says the check is incomplete.
 */
export function applyUserSettings(
  findings: Finding[],
  text: string,
  levels: Readonly<Record<string, RuleLevel>> | undefined,
  lines?: LineIndex,
): Finding[] {
  // Nothing to apply (no levels, no ignore comment anywhere): the findings as they are, without indexing the lines of the text.
  if ((!levels || !Object.keys(levels).length) && !text.includes(MARKER)) return findings;
  const index = lines ?? new LineIndex(text);
  const out: Finding[] = [];
  for (const f of findings) {
    if (f.code === "internal") {
      out.push(f);
      continue;
    }
    const level = levels && Object.hasOwn(levels, f.code) ? levels[f.code] : undefined;
    if (level === "off") continue;
    const ignored = ignoredOn(text, index, index.position(f.start).line - 1);
    if (ignored === "all" || ignored?.has(f.code)) continue;
    out.push(level && level !== f.severity ? { ...f, severity: level } : f);
  }
  return out;
}
