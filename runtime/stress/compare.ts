/**
 * Comparing designs: the same table with the key a quick fix proposes
 * (a finding of a rule with the `partition` trait: a hot, append-only,
 * single-value or too-large partition key, a time bucket not declared increasing), so both can
 * run back to back under the same workload.
 */
import { AnalysisOptions, analyzeTdl, PARTITION_CODES } from "@core";

export interface Alternative {
  /** The design text with the fix applied. */
  text: string;
  /** What changed, e.g. the fix's title. */
  title: string;
  code: string;
}

/** The design with the preferred fix of the table's first partition finding applied, if there is one. */
export function proposedAlternative(text: string, table: string, options: AnalysisOptions = {}): Alternative | undefined {
  const analysis = analyzeTdl(text, options);
  const tm = analysis.tables.find((t) => t.table.name.text === table);
  if (!tm) return undefined;
  const within = (o: number) => o >= tm.base + tm.table.start && o <= tm.base + tm.table.end;
  const finding = analysis.findings.find((f) => PARTITION_CODES.has(f.code) && within(f.start) && f.fixes?.some((x) => x.preferred));
  const fix = finding?.fixes?.find((x) => x.preferred);
  if (!finding || !fix) return undefined;
  const fixed = [...fix.edits].sort((a, b) => b.start - a.start).reduce((t, e) => t.slice(0, e.start) + e.newText + t.slice(e.end), text);
  return { text: fixed, title: fix.title, code: finding.code };
}
