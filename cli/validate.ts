/**
 * One way to fail on the command line: the checks every `tdl` command runs
 * on the names (tables, rules, columns), paths and filters it was given,
 * before it analyses anything or talks to a service, and the one sentence
 * each mistake gets, whichever command made it. Each throws an InputError
 * (exit 2, failure.ts). test/cli/wrong-inputs.test.ts runs every command
 * through a table of these mistakes.
 */
import * as fs from "node:fs";
import {
  ANALYSIS_RECORDS,
  MAX_RATE_PER_SECOND,
  parseFilter,
  profileFor,
  RULES,
  type FilterExpr,
  type ServiceName,
  type TableModel,
  type TdlAnalysis,
} from "@core";
import { describeError, InputError, UnavailableError } from "@core/errors";
import { clip, formatCount, listNames } from "@core/text/words";
import { endpointHost } from "@runtime";
import { unreadable } from "./files";
import { catalog } from "./catalog";

/**
 * The sentence of a name that is not there: `WHERE: no KIND 'NAME' [in WITHIN] (KINDs: A, B)`,
 * or, when the known names are too many to list, the closest of them.
 */
export function noSuch(where: string, kind: string, name: string, known: readonly string[], within?: string): InputError {
  const list = known.length === 0 ? `there is no ${kind}` : known.length <= 12 ? `${kind}s: ${listNames(known, 12)}` : nearest(name, known);
  return new InputError(`${where}: no ${kind} '${clip(name, 60)}'${within ? ` in ${within}` : ""} (${list})`);
}

/** `did you mean X?` from a long list of names (the one fewest edits away). */
function nearest(name: string, known: readonly string[]): string {
  let best = known[0];
  let bestDistance = Infinity;
  for (const k of known) {
    const d = distance(name.toLowerCase(), k.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return `did you mean ${best}?`;
}

/** Levenshtein distance, on names of at most a few dozen characters (the name is clipped first). */
function distance(a: string, b: string): number {
  a = a.slice(0, 80);
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length];
}

/** A path the command reads (a file or a folder): `PATH: no such file or folder` when it is not there. */
export function existingPath(p: string): void {
  try {
    fs.statSync(p);
  } catch (e) {
    throw new InputError(unreadable(p, e));
  }
}

/** A folder the command reads (an export's, a workspace): `PATH: no such file or folder`, or `PATH: cannot read (a file, not a folder)`. */
export function existingFolder(p: string): void {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(p);
  } catch (e) {
    throw new InputError(unreadable(p, e));
  }
  if (!stat.isDirectory()) throw new InputError(`${p}: cannot read (a file, not a folder)`);
}

/** Every path given, checked before any is read: the first missing one is the mistake, and nothing is reported beside it. */
export function existingPaths(paths: readonly string[]): void {
  for (const p of paths) existingPath(p);
}

/** The table `name` of a design, or the sentence naming the design's tables. */
export function designTable(file: string, analysis: TdlAnalysis, name: string): TableModel {
  const found = analysis.tables.find((t) => t.table.name.text === name);
  if (!found)
    throw noSuch(
      file,
      "table",
      name,
      analysis.tables.map((t) => t.table.name.text),
    );
  return found;
}

/** A table name the service could hold (`--table`, `--to-table`), by the naming rule of the service profile. */
export function tableName(option: string, name: string, service?: ServiceName): void {
  const profile = profileFor(service);
  const rule = profile.tableName;
  if (!rule.pattern.test(name) || rule.reserved.includes(name.toLowerCase()))
    throw new InputError(`--${option}: '${clip(name, 60)}' is not a table name (${profile.label} table names are ${rule.rule})`);
}

/**
 * `work` on the table `name` of the account at `endpoint`; the service's
 * answer that the table does not exist (which does not name it) becomes
 * the sentence of a name that is not there, `HOST: no table 'NAME'` — exit 1,
 * as interfaces.md has it: the table could not be read (the name itself may be right).
 */
export async function onTable<T>(endpoint: string, name: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if ((e as { code?: unknown })?.code === "TableNotFound")
      throw new UnavailableError(`${endpointHost(endpoint)}: no table '${clip(name, 60)}'`);
    throw e;
  }
}

/** The rule codes of `--rule CODE=LEVEL,…` that `tdl` reports; one it does not is named, with the closest that it does. */
export function ruleCodes(raw: string | undefined): void {
  if (raw === undefined) return;
  for (const part of raw.split(",")) {
    const code = part.split("=")[0].trim();
    // The TypeScript rules load with the compiler: only a `ts/` code is worth that.
    const known = (code.startsWith("ts/") ? catalog() : [...RULES, ...ANALYSIS_RECORDS]).map((r) => r.code);
    // A malformed code or level is the analysis options' own sentence (options.ts).
    if (code && /^[a-z][a-z0-9-]*(\/[a-z0-9-]+)?$/.test(code) && !known.includes(code)) {
      const suggestion = nearest(code, known);
      throw new InputError(`--rule: no rule '${clip(code, 60)}' (${suggestion} docs/rules.md lists them)`);
    }
  }
}

/** A filter that parses (`tdl classify FILTER`, `--filter F`), or the sentence with its position and a caret under it. */
export function parsedFilter(filter: string): FilterExpr {
  const parsed = parseFilter(filter);
  if (parsed.ok) return parsed.expr;
  const { message, start } = parsed.error;
  throw new InputError(
    `the filter does not parse at character ${start + 1}: ${describeError(new Error(message))}\n${caret(filter, start)}`,
  );
}

/** The properties a filter compares that the design's table does not declare (the key and system properties always exist). */
export function filterColumns(filter: string, expr: FilterExpr, file: string, table: TableModel): void {
  const declared = [...table.props.keys()];
  const known = new Set(["PartitionKey", "RowKey", "Timestamp", ...declared]);
  const walk = (e: FilterExpr): void => {
    if (e.kind === "and" || e.kind === "or") return (walk(e.left), walk(e.right));
    if (e.kind === "not") return walk(e.expr);
    if ((e.kind === "cmp" || e.kind === "prop") && !known.has(e.property)) {
      const gone = noSuch(file, "column", e.property, declared, `table ${table.table.name.text}`);
      throw new InputError(`${gone.message}\n${caret(filter, e.propStart)}`);
    }
  };
  walk(expr);
}

/** Characters shown on each side of the error position: a 200,000-character filter is not printed whole. */
const CONTEXT = 40;

/**
 * The filter around `start`, with a caret under it. Control characters
 * (newlines, tabs, NUL) are shown as `·` so that the caret lines up and the
 * terminal is not driven by the user's input.
 */
export function caret(filter: string, start: number): string {
  const from = Math.max(0, start - CONTEXT);
  const to = Math.min(filter.length, start + CONTEXT);
  const shown =
    (from > 0 ? "…" : "") + filter.slice(from, to).replace(/[\u0000-\u001f\u007f-\u009f]/g, "·") + (to < filter.length ? "…" : "");
  return `  ${shown}\n  ${" ".repeat(start - from + (from > 0 ? 1 : 0))}^`;
}

/** The sentence of a rate beyond what any account serves: `WHAT: RATE is beyond what any account serves (at most N calls a second)`. */
export function rateBeyond(what: string, rate: string): InputError {
  return new InputError(`${what}: ${rate} is beyond what any account serves (at most ${formatCount(MAX_RATE_PER_SECOND)} calls a second)`);
}

/** A calls-per-second figure given on the command line (`--rate N`), within what any account serves. */
export function rateWithin(option: string, perSecond: number): void {
  if (!(perSecond <= MAX_RATE_PER_SECOND)) throw rateBeyond(`--${option}`, shownRate(perSecond));
}

/** A rate as a sentence shows it: grouped digits, or a power of ten past what digits make readable. */
function shownRate(perSecond: number): string {
  return `${perSecond < 1e15 ? formatCount(perSecond) : perSecond.toExponential(2).replace(/e\+?(-?\d+)$/, " × 10^$1")}/s`;
}

/**
 * Every rate the design declares (of `table`, or of every table), times
 * `scale` (`--scale K`), within what any account serves: checked before
 * anything is priced or run, so no figure is made of an impossible load.
 */
export function declaredRates(file: string, analysis: TdlAnalysis, o: { table?: string; scale?: number } = {}): void {
  const scale = o.scale ?? 1;
  for (const tm of analysis.tables) {
    if (o.table !== undefined && tm.table.name.text !== o.table) continue;
    for (const a of tm.table.accesses) {
      if (!a.rate || a.rate.perSecond * scale <= MAX_RATE_PER_SECOND) continue;
      const op = a.kind === "write" ? a.op : a.kind;
      throw rateBeyond(
        `${file}: ${op} ${clip(a.name.text, 60)} of table ${tm.table.name.text}`,
        `${shownRate(a.rate.perSecond)}${scale === 1 ? "" : ` × --scale ${scale}`}`,
      );
    }
  }
}
