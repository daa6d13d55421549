/**
 * The catalog of every code `tdl` can report — the analysis's own, the
 * `.tdl` rules and the TypeScript rules — from their records. It writes the
 * rule tables of docs/rules.md (`npm run docs:rules`; a test checks they are
 * current) and the SARIF output's rule metadata, so the two never drift from
 * the code.
 */
import { ANALYSIS_RECORDS, FAMILIES, Family, RULES, RuleRecord, ruleAnchor } from "@core";
import { loadTsAnalysis } from "@ts-analysis/loader";

let records: RuleRecord[] | undefined;

/** Every record, one per code, in catalog order (the TypeScript rules load with the compiler, on first use). */
export function catalog(): readonly RuleRecord[] {
  if (!records) {
    const seen = new Map<string, RuleRecord>();
    for (const r of [...RULES, ...ANALYSIS_RECORDS, ...loadTsAnalysis().TS_RULES]) if (!seen.has(r.code)) seen.set(r.code, r);
    records = [...seen.values()];
  }
  return records;
}

/** Where the catalog's explanation of a code is, relative to the repository (SARIF `helpUri`). */
export const helpUri = (code: string) => `docs/rules.md#${ruleAnchor(code)}`;

const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");

/** The markdown table of one family. */
export function familyTable(family: Family): string {
  const rows = catalog().filter((r) => r.family === family);
  const lines = ["| code | severity | when | fix | messages |", "| --- | --- | --- | --- | --- |"];
  for (const r of rows) {
    // The ids a finding's `messageId` takes (what tests assert, and the JSON output's readers may key on).
    const messages =
      Object.keys(r.messages)
        .map((id) => `\`${id}\``)
        .join(", ") || "—";
    lines.push(
      `| <a id="${ruleAnchor(r.code)}"></a>\`${r.code}\` | ${cell(r.docs.severityNote ?? r.severity)} | ${cell(r.docs.summary)} — ${cell(r.docs.why)} | ${cell(r.docs.fix ?? "—")} | ${messages} |`,
    );
  }
  return lines.join("\n");
}

const BEGIN = (family: Family) => `<!-- rules: ${family} (generated from the rule records by npm run docs:rules) -->`;
const END = "<!-- /rules -->";

/** docs/rules.md with each family's generated table replaced by the current one; throws when a family has no place. */
export function withCurrentTables(markdown: string): string {
  let out = markdown;
  for (const family of FAMILIES) {
    const begin = out.indexOf(BEGIN(family));
    const end = begin < 0 ? -1 : out.indexOf(END, begin);
    if (begin < 0 || end < 0) throw new Error(`docs/rules.md has no place for the '${family}' table: add ${BEGIN(family)} … ${END}`);
    out = out.slice(0, begin) + `${BEGIN(family)}\n${familyTable(family)}\n` + out.slice(end);
  }
  return out;
}

/** The SARIF `reportingDescriptor` of a code. */
export function sarifRule(code: string): Record<string, unknown> {
  const r = catalog().find((x) => x.code === code);
  if (!r) return { id: code, shortDescription: { text: code } };
  return {
    id: code,
    shortDescription: { text: r.docs.summary },
    fullDescription: { text: `${r.docs.summary}. ${r.docs.why}` },
    help: { text: r.docs.fix ? `Quick fix: ${r.docs.fix}` : r.docs.why },
    helpUri: helpUri(code),
    defaultConfiguration: { level: r.severity === "error" ? "error" : r.severity === "warning" ? "warning" : "note" },
  };
}
