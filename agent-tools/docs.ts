/**
 * The documents agents may read: the language reference (docs/language.md)
 * and the rules catalog (docs/rules.md), one entry per diagnostic code. Read
 * from the docs folder beside the bundle (`dist/../docs`, in the VSIX as in
 * the repository) or beside this source (tests), once.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { ruleAnchor } from "@core";
import { UnavailableError } from "@core/errors";

/** One row of docs/rules.md. */
export interface RuleEntry {
  code: string;
  /** The section it is listed under: "Keys", "Queries"… */
  section: string;
  severity: string;
  /** When it is reported, and why it matters. */
  when: string;
  /** What its quick fix does, or "—". */
  fix: string;
  /** The row as the catalog writes it (Markdown). */
  markdown: string;
}

const docsFolder = () => path.resolve(__dirname, "..", "docs");
const cache = new Map<string, string>();

/** A document of the docs folder, by file name; a missing one is an error that says where it was looked for. */
export function readDoc(name: "language.md" | "rules.md"): string {
  let text = cache.get(name);
  if (text === undefined) {
    const file = path.join(docsFolder(), name);
    try {
      text = fs.readFileSync(file, "utf8");
    } catch {
      throw new UnavailableError(`the documentation is not installed: ${name} was looked for in ${docsFolder()}`);
    }
    cache.set(name, text);
  }
  return text;
}

let entries: RuleEntry[] | undefined;

/** Every rule's entry, in the catalog's order. */
export function ruleEntries(): readonly RuleEntry[] {
  if (entries) return entries;
  const found: RuleEntry[] = [];
  let section = "";
  // The columns by their header (`| code | severity | when | fix | …`), so a column the catalog adds moves nothing.
  let columns: string[] = [];
  for (const line of readDoc("rules.md").split("\n")) {
    const heading = /^## (.+)$/.exec(line);
    if (heading) section = heading[1].trim();
    if (line.startsWith("| code |")) columns = cellsOf(line);
    const row = /^\| <a id="([a-z0-9-]+)"><\/a>`([^`]+)` \|/.exec(line);
    if (!row) continue;
    const cells = cellsOf(line);
    const cell = (name: string) => cells[columns.indexOf(name)] ?? "";
    found.push({
      code: row[2],
      section: section || "General",
      severity: cell("severity"),
      when: cell("when"),
      fix: cell("fix") || "—",
      markdown: line,
    });
  }
  return (entries = found);
}

/** A table row's cells, trimmed (a `|` inside backticks stays in its cell). */
function cellsOf(line: string): string[] {
  const cells: string[] = [];
  let cell = "";
  let code = false;
  for (const ch of line.trim().slice(1, -1)) {
    if (ch === "`") code = !code;
    if (ch === "|" && !code) {
      cells.push(cell.trim());
      cell = "";
    } else cell += ch;
  }
  cells.push(cell.trim());
  return cells;
}

/** The entry of `code`, or undefined. */
export function ruleEntry(code: string): RuleEntry | undefined {
  return ruleEntries().find((e) => ruleAnchor(e.code) === ruleAnchor(code) && e.code === code);
}
