/**
 * Fixes checked before they are offered (issue #20). Each candidate fix of
 * a finding is applied to a copy of the design and the copy is analysed; it
 * is offered only if
 *
 * 1. the copy parses (no new syntax or meaning error),
 * 2. the finding is gone from its anchor (the table and member it sat on),
 * 3. no declared query is worse: its class ranks no higher, a point read
 *    stays one request, a fan-out stays within `FANOUT_MAX` requests of the
 *    same class (the title names it), and it scans at most twice as much —
 *    a query moved to a second table is judged there,
 * 4. no finding of equal or higher severity appears, and none grows (a
 *    finding whose leading figure rises counts as new).
 *
 * Facts (`Fix.fact`: declaring `increasing`) are exempt from 3 and 4: they
 * reveal findings rather than cause them. The accepted fixes are ordered by
 * what they leave behind (`order.ts`); the first is preferred.
 */
import { TdlAnalysis, TdlAnalyzer } from "../analysis/analyze";
import { tableFacts } from "../model/facts";
import { BROKEN_CODES, NEVER_INTRODUCED_CODES } from "../analysis/records";
import { Finding, Fix, TextEdit } from "../findings";
import { anchorOf, anchorTable, FILE_CODES, leadingFigure, QueryState, queryStates, tableHolding } from "./anchors";
import { describeChecked, scoreOf } from "./order";
import { FixCheck, SEVERITY_RANK, VettedFix } from "./check";

export { SEVERITY_RANK } from "./check";
export type { FixCheck, VettedFix } from "./check";

/** Requests a fan-out may add to a query of the same class and still count as no worse. */
export const FANOUT_MAX = 16;

const CLASS_RANK = { point: 0, "row-range": 1, "partition-range": 2, "table-scan": 3 } as const;
/** Findings that say the design no longer parses or means something else. */

export interface VetResult {
  /** Accepted fixes, best first, the first preferred: what to offer. */
  offered: Fix[];
  /** Every fix checked, accepted first (in order), then the refused. */
  checked: VettedFix[];
  /** Fixes left unchecked because the time budget ran out (or that cannot be applied to a copy). */
  unchecked: Fix[];
}

export interface VetOptions {
  /** An analyzer that starts from the analysed text's chunks (`TdlAnalyzer.fork()`); a fresh one otherwise. */
  analyzer?: TdlAnalyzer;
  /** A clock and the time by which checking stops: what is left is returned unchecked. */
  clock?: () => number;
  deadline?: number;
  /**
   * Characters of design text the checking may still analyse, shared by
   * the calls of one run and spent as it goes (each copy analysed costs its
   * length): a size bound, so that `tdl check` and `tdl fix` never depend
   * on the machine's speed; what it does not reach is returned unchecked.
   */
  budget?: CheckBudget;
  fanOutMax?: number;
}

/** What is left of a run's checking budget, in characters analysed. */
export interface CheckBudget {
  chars: number;
  /** Set once something was left unchecked for want of it. */
  ranOut?: boolean;
}

/** Spends `n` characters of `budget` if it has them (no budget: always). */
function spend(budget: CheckBudget | undefined, n: number): boolean {
  if (!budget) return true;
  if (budget.chars < n) {
    budget.ranOut = true;
    return false;
  }
  budget.chars -= n;
  return true;
}

/** Applies non-overlapping edits to a copy of the text, in one pass (linear in the text, however many edits). */
export function applyFixEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  const parts: string[] = [];
  let at = 0;
  for (const e of sorted) {
    parts.push(text.slice(at, e.start), e.newText);
    at = Math.max(at, e.end);
  }
  parts.push(text.slice(at));
  return parts.join("");
}

/**
 * The text a fix is checked in: the design's head (its `service` line) and
 * the finding's table, with the fix's edits moved there — so that checking
 * costs what the table costs, not what the file does (a design of
 * thousands of tables). The rules of the whole file then see that table
 * alone; a table the fix adds must not take another table's name. A
 * finding of the whole file, or a fix that edits outside its table, is
 * checked in the whole text.
 */
interface Scope {
  before: TdlAnalysis;
  finding: Finding;
  /** The fix's edits in the scope's text; undefined when one falls outside it. */
  edits(fix: Fix): TextEdit[] | undefined;
  /** Whether a table the scope leaves out has this name. */
  elsewhere(name: string): boolean;
}

/** Chunk starts and table names of an analysis, once: a fix loop over a large design asks for them per finding. */
const layouts = new WeakMap<TdlAnalysis, { bases: number[]; names: Map<string, number> }>();

function layoutOf(analysis: TdlAnalysis): { bases: number[]; names: Map<string, number> } {
  let layout = layouts.get(analysis);
  if (!layout) {
    const names = new Map<string, number>();
    for (const t of analysis.tables) names.set(t.table.name.text, (names.get(t.table.name.text) ?? 0) + 1);
    layout = { bases: [...new Set(analysis.tables.map((t) => t.base))].sort((a, b) => a - b), names };
    layouts.set(analysis, layout);
  }
  return layout;
}

function scopeOf(analysis: TdlAnalysis, finding: Finding, analyzer: TdlAnalyzer, budget?: CheckBudget): Scope | undefined {
  const whole: Scope = { before: analysis, finding, edits: (fix) => fix.edits, elsewhere: () => false };
  const tm = FILE_CODES.has(finding.code) ? undefined : tableHolding(analysis, finding.start);
  if (!tm || analysis.tables.length < 2) return whole;
  const { bases, names } = layoutOf(analysis);
  const start = tm.base;
  const next = bases.find((b) => b > start);
  const end = next ?? analysis.text.length;
  const head = analysis.text.slice(0, Math.min(start, bases[0]));
  const delta = head.length - start;
  if (!spend(budget, head.length + end - start)) return undefined;
  const before = analyzer.analyze(head + analysis.text.slice(start, end), analysis.options ?? {});
  const moved = before.findings.find((f) => f.code === finding.code && f.start === finding.start + delta && f.end === finding.end + delta);
  if (!moved) return whole;
  const own = tm.table.name.text;
  return {
    before,
    finding: moved,
    edits: (fix) =>
      fix.edits.every((e) => e.start >= start && e.end <= end)
        ? fix.edits.map((e) => ({ ...e, start: e.start + delta, end: e.end + delta }))
        : undefined,
    elsewhere: (name) => (names.get(name) ?? 0) - (name === own ? 1 : 0) > 0,
  };
}

/** Checks each fix of `finding` (a finding of `analysis`) as the module comment says. */
export function vetFixes(analysis: TdlAnalysis, finding: Finding, options: VetOptions = {}): VetResult {
  const analyzer = options.analyzer ?? new TdlAnalyzer();
  const fanOutMax = options.fanOutMax ?? FANOUT_MAX;
  const scope = scopeOf(analysis, finding, analyzer, options.budget);
  if (!scope) return { offered: [], checked: [], unchecked: [...(finding.fixes ?? [])] };
  const scoped = new Before(scope.before, scope.finding);
  let whole: Before | undefined;
  const accepted: Array<VettedFix & { score: number[]; order: number }> = [];
  const refused: VettedFix[] = [];
  const unchecked: Fix[] = [];
  const timeUp = () => !!options.clock && options.deadline !== undefined && options.clock() > options.deadline;
  (finding.fixes ?? []).forEach((fix, order) => {
    if (!fix.edits.length || fix.command || timeUp()) {
      unchecked.push(fix);
      return;
    }
    const edits = scope.edits(fix);
    const text = edits ? applyFixEdits(scope.before.text, edits) : applyFixEdits(analysis.text, fix.edits);
    if (!spend(options.budget, text.length)) {
      unchecked.push(fix);
      return;
    }
    const after = analyzer.analyze(text, analysis.options ?? {});
    const check = edits
      ? judge(scoped, after, fix, fanOutMax, scope.elsewhere)
      : judge((whole ??= new Before(analysis, finding)), after, fix, fanOutMax, () => false);
    if (check.accepted) accepted.push({ fix, check, score: check.score!, order });
    else refused.push({ fix: { ...fix, preferred: undefined }, check });
  });
  accepted.sort((a, b) => compareScores(a.score, b.score) || a.order - b.order);
  const offered = accepted.map((v, i) => ({ ...v.fix, title: describeChecked(v.fix, v.check), preferred: i === 0 ? true : undefined }));
  return {
    offered,
    checked: [...accepted.map((v, i) => ({ fix: offered[i], check: v.check })), ...refused],
    unchecked,
  };
}

function sameFinding(a: Finding, b: Finding): boolean {
  return a.code === b.code && a.start === b.start && a.end === b.end;
}

function compareScores(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (Math.abs(d) > 1e-9) return d;
  }
  return 0;
}

/** What the design was before any fix: its findings by anchor, its queries, its broken parts. */
class Before {
  readonly anchor: string;
  readonly queries: Map<string, QueryState>;
  readonly byAnchor = new Map<string, Finding[]>();
  readonly broken: number;
  readonly tables: Set<string>;

  constructor(
    readonly analysis: TdlAnalysis,
    readonly finding: Finding,
  ) {
    this.anchor = anchorOf(analysis, finding);
    this.queries = queryStates(analysis);
    for (const f of analysis.findings) {
      if (f.severity === "hint") continue;
      const at = anchorOf(analysis, f);
      this.byAnchor.set(at, [...(this.byAnchor.get(at) ?? []), f]);
    }
    this.broken = analysis.findings.filter((f) => BROKEN_CODES.has(f.code)).length;
    this.tables = new Set(analysis.tables.map((t) => t.table.name.text));
  }
}

function judge(before: Before, after: TdlAnalysis, fix: Fix, fanOutMax: number, elsewhere: (name: string) => boolean): FixCheck {
  const code = before.finding.code;
  const base = { removes: code, ...(fix.fact ? { fact: true } : {}) };
  const broken = after.findings.filter((f) => BROKEN_CODES.has(f.code));
  const refusal = (refused: string): FixCheck => ({ ...base, accepted: false, refused, leaves: [], queries: {} });
  if (broken.length > before.broken) return refusal(`the design would not hold: ${broken[0].code}: ${broken[0].message}`);
  const taken = after.tables.find((t) => elsewhere(t.table.name.text) && !before.tables.has(t.table.name.text));
  if (taken) return refusal(`another table is named ${taken.table.name.text}`);
  const anchored = after.findings.map((f) => ({ f, at: anchorOf(after, f) }));
  // What it leaves where the fix acts: its table, a table it adds, the file — not the rest of a large design.
  const table = anchorTable(before.anchor);
  const near = (at: string) => at === "file" || anchorTable(at) === table || !before.tables.has(anchorTable(at));
  const leaves = anchored
    .filter(({ f, at }) => SEVERITY_RANK[f.severity] >= SEVERITY_RANK.warning && near(at))
    .filter(({ f, at }) => !fix.fact || !(before.byAnchor.get(at) ?? []).some((b) => b.code === f.code))
    .map(({ f, at }) => ({ code: f.code, severity: f.severity, anchor: at }));
  const afterQueries = queryStates(after);
  const { changes, worse, moved } = compareQueries(before.queries, afterQueries, fanOutMax);
  for (const [at, was] of keysKeptElsewhere(before, after, table)) moved.set(at, was);
  const refuse = (refused: string): FixCheck => ({ ...base, accepted: false, refused, leaves, queries: changes });
  if (anchored.some(({ f, at }) => f.code === code && at === before.anchor))
    return refuse(`it does not remove ${code} from ${before.anchor}`);
  const introduced = anchored.find(
    ({ f, at }) =>
      NEVER_INTRODUCED_CODES.has(f.code) &&
      anchored.filter((x) => x.f.code === f.code && x.at === at).length >
        (before.byAnchor.get(moved.get(at) ?? at) ?? []).filter((b) => b.code === f.code).length,
  );
  if (introduced) return refuse(`it raises ${introduced.f.code} at ${introduced.at}: ${introduced.f.message}`);
  if (!fix.fact) {
    if (worse.length) return refuse(`a declared query gets worse: ${worse.join("; ")}`);
    const raised = newFindings(
      before,
      anchored.map(({ f, at }) => ({ f, at: moved.get(at) ?? at })),
    );
    if (raised) return refuse(raised);
  }
  const writes = writesPerEntity(before, after, table);
  return { ...base, accepted: true, leaves, queries: changes, ...(writes ? { writes } : {}), score: scoreOf(after, afterQueries, writes) };
}

/**
 * The keys of a table the fix adds that are written as the fixed table's
 * were (a state's own table keeps the keys that served its queries): their
 * findings are judged as the old keys' were, "New/partitionKey" as
 * "Old/partitionKey", since the load they describe moved with them.
 */
function keysKeptElsewhere(before: Before, after: TdlAnalysis, table: string): Map<string, string> {
  const out = new Map<string, string>();
  const old = before.analysis.tables.find((t) => t.table.name.text === table);
  if (!old) return out;
  const text = (tm: typeof old, which: "partitionKey" | "rowKey") => {
    const k = tm.table[which];
    return k ? tm.text.slice(k.expr.start, k.expr.end) : undefined;
  };
  for (const tm of after.tables) {
    if (before.tables.has(tm.table.name.text)) continue;
    for (const which of ["partitionKey", "rowKey"] as const)
      if (text(tm, which) !== undefined && text(tm, which) === text(old, which))
        out.set(`${tm.table.name.text}/${which}`, `${table}/${which}`);
  }
  return out;
}

/**
 * Rows one logical write of the fixed table stores, before and after the
 * fix: its main row and index rows, and those of every table the fix adds
 * (a mirrored table is written too); with the bytes they hold when the
 * entity size is declared. Undefined when the fix writes no more.
 */
function writesPerEntity(before: Before, after: TdlAnalysis, table: string): FixCheck["writes"] {
  const rowsOf = (a: TdlAnalysis, names: (name: string) => boolean) =>
    a.tables.filter((t) => names(t.table.name.text)).reduce((sum, t) => sum + tableFacts(t.table, t.props).est.rowsPerEntity, 0);
  const was = rowsOf(before.analysis, (n) => n === table);
  const is = rowsOf(after, (n) => n === table || !before.tables.has(n));
  if (!(is > was)) return undefined;
  const size = before.analysis.tables.find((t) => t.table.name.text === table)?.table.entitySize?.value.value;
  return {
    before: was,
    after: is,
    ...(size !== undefined && Number.isFinite(size) ? { bytes: { before: was * size, after: is * size } } : {}),
  };
}

/** How each declared query changes, and which get worse (a query moved to another table is looked up by name). */
function compareQueries(
  before: ReadonlyMap<string, QueryState>,
  after: ReadonlyMap<string, QueryState>,
  fanOutMax: number,
): { changes: Record<string, string>; worse: string[]; moved: Map<string, string> } {
  const changes: Record<string, string> = {};
  const worse: string[] = [];
  // A query moved to another table keeps its anchor: "New/Q" is judged as "Old/Q" was.
  const moved = new Map<string, string>();
  const show = (q: QueryState) => `${q.class}${q.requests > 1 ? ` · ${q.requests} requests` : ""}`;
  for (const [key, q] of before) {
    const a = after.get(key) ?? [...after.values()].find((x) => x.name === q.name && !before.has(`${x.table}/${x.name}`));
    if (!a) {
      worse.push(`'${q.name}' is no longer declared`);
      continue;
    }
    const elsewhere = a.table !== q.table ? ` (in table ${a.table})` : "";
    if (elsewhere) moved.set(`${a.table}/${a.name}`, key);
    if (show(a) !== show(q) || elsewhere) changes[key] = `${show(q)} → ${show(a)}${elsewhere}`;
    if (CLASS_RANK[a.class] > CLASS_RANK[q.class]) worse.push(`'${q.name}' becomes a ${a.class} (was ${q.class})`);
    else if (a.requests > q.requests && (q.class === "point" || a.requests > fanOutMax))
      worse.push(`'${q.name}' needs ${a.requests} requests (was ${q.requests})`);
    else if (a.cost !== null && q.cost !== null && a.cost > 2 * Math.max(1, q.cost))
      worse.push(`'${q.name}' scans more than twice as much`);
  }
  return { changes, worse, moved };
}

/** The first finding the fix raises (or grows) at or above the fixed finding's severity, in words; undefined when none. */
function newFindings(before: Before, anchored: Array<{ f: Finding; at: string }>): string | undefined {
  const floor = Math.max(SEVERITY_RANK.info, SEVERITY_RANK[before.finding.severity]);
  const seen = new Map<string, number>();
  for (const { f, at } of anchored) {
    if (SEVERITY_RANK[f.severity] < floor) continue;
    const key = `${f.code}@${at}`;
    const nth = seen.get(key) ?? 0;
    seen.set(key, nth + 1);
    const was = (before.byAnchor.get(at) ?? []).filter((b) => !sameFinding(b, before.finding));
    const same = was.filter((b) => b.code === f.code);
    if (nth < same.length) {
      const from = leadingFigure(same[nth].message);
      const to = leadingFigure(f.message);
      if (from !== undefined && to !== undefined && to > from * 1.01) return `${f.code} grows at ${at}: ${f.message}`;
      continue;
    }
    // On a query, one finding may replace another as its class changes (a scan that becomes a wide range).
    const onQuery = before.queries.has(at);
    if (onQuery && was.some((b) => SEVERITY_RANK[b.severity] >= SEVERITY_RANK[f.severity])) continue;
    return `it raises ${f.code} at ${at}: ${f.message}`;
  }
  return undefined;
}
