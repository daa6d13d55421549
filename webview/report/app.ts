/**
 * The stress report view: for each run (two side by side when comparing
 * designs), the verdict with how the run was scaled, what its requests cost
 * on Table Storage (protocol/run-cost.ts), the operations' figures, what
 * each access pattern ran as, and three charts (see charts.ts). Numbers and nouns use the runtime's words, so the page says
 * "1 partition" and "no errors" the way the CLI's summary does.
 */
import type { ReportState } from "@protocol/pages";
import type { StressReport } from "@protocol/stress-report";
import type { OpType } from "@protocol";
import { entityRate, errorsInWords, formatCount, plural } from "@core/text/words";
import { SNAPSHOT } from "@core/cost/snapshot";
import { runCostLine } from "@protocol/run-cost";
import { FIGURE_NAMES, figureRows } from "@protocol/run-figures";
import { FIGURES } from "@core/text/figures";
import { h } from "../dom";
import { drawCharts, hottestScale, RunCharts, shownOps } from "./charts";

/** Operation names as a user reads them: the call each one is. */
const OP_WORDS: Record<OpType, string> = {
  insert: "insert",
  update: "update",
  delete: "delete",
  pointRead: "point read (getEntity)",
  query: "range query (listEntities)",
  scan: "table scan",
  transaction: "transaction (submitTransaction)",
};

/**
 * Renders every run of `state` into `root`. The charts follow the theme:
 * VS Code switches it by changing the body's classes and the root's
 * variables, and the charts are drawn again in the new colours.
 */
export function renderReports(root: HTMLElement, state: ReportState): void {
  const charts: RunCharts[] = [];
  root.append(
    h("div", { class: `reports runs-${state.runs.length}` }, ...state.runs.map((run) => renderRun(run.label, run.report, charts))),
  );
  let pending = false;
  const recolour = () => {
    if (pending) return;
    pending = true;
    // One redraw per frame however many attributes the switch changed.
    requestAnimationFrame(() => {
      pending = false;
      for (const c of charts) c.recolour();
    });
  };
  const themed = new MutationObserver(recolour);
  themed.observe(document.body, { attributes: true, attributeFilter: ["class"] });
  themed.observe(document.documentElement, { attributes: true, attributeFilter: ["style", "class"] });
}

function renderRun(label: string, r: StressReport, charts: RunCharts[]): HTMLElement {
  const canvas = (name: string) => h("canvas", { class: name, width: 560, height: 220 });
  const canvases = { timeline: canvas("timeline"), latency: canvas("latency"), partitions: canvas("partitions") };
  const ops = shownOps(r);
  const scale = hottestScale(r);
  const shown = Math.min(20, r.partitions.length);
  const el = h(
    "section",
    { class: "run" },
    h("h1", {}, label),
    h(
      "p",
      { class: "meta" },
      [r.mode, r.target, `${(r.durationMs / 1000).toFixed(1)} s`, `concurrency ${r.concurrency}`, `table ${r.table}`].join(" · ") +
        (r.stopped ? ` · stopped: ${r.stopped}` : ""),
    ),
    verdictBlock(r),
    // What the run's requests would cost on Table Storage, at the price sheet shipped with the extension.
    h("p", { class: "run-cost" }, runCostLine(r, SNAPSHOT)),
    operationsTable(r, ops),
    errorsLine(r, ops),
    patternsTable(r),
    h("h2", {}, "Throughput over time"),
    canvases.timeline,
    h("h2", {}, "Latency percentiles"),
    canvases.latency,
    h(
      "h2",
      {},
      shown < r.partitionCount
        ? `Hottest partitions (${formatCount(shown)} of ${formatCount(r.partitionCount)})`
        : `Hottest partitions (${plural(r.partitionCount, "partition")})`,
    ),
    h("p", { class: "partitions-note" }, scale.caption),
    canvases.partitions,
  );
  queueMicrotask(() => charts.push(drawCharts(canvases, r, ops, scale)));
  return el;
}

/**
 * The headline — a sentence of verdict, a sentence of cause — and the rest
 * under it, a sentence an item. A report written before the two sentences
 * were apart shows its headline and note as they were.
 */
function verdictBlock(r: StressReport): HTMLElement {
  const v = r.verdict;
  const hottest = `Hottest partition: ${entityRate(v.hottestPartitionEntitiesPerSecond)} (target ${entityRate(v.partitionTargetEntitiesPerSecond)}).`;
  const details = v.details ?? [v.note];
  return h(
    "div",
    { class: `verdict ${v.exceedsTarget ? "hot" : "ok"}` },
    h("p", { class: "verdict-line" }, h("strong", {}, v.verdictSentence ?? v.headline ?? hottest)),
    v.cause ? h("p", { class: "cause" }, v.cause) : undefined,
    h("ul", { class: "details" }, h("li", {}, hottest), ...details.filter(Boolean).map((d) => h("li", {}, d))),
  );
}

/** One row per operation that ran or failed: calls, entities and their rate, latency, errors in words, retries. */
function operationsTable(r: StressReport, ops: OpType[]): HTMLElement {
  if (!ops.length) return h("p", { class: "ops empty" }, "No operation ran.");
  return h(
    "div",
    { class: "table-scroll" },
    h(
      "table",
      { class: "ops" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          ...["operation", "calls", "entities", "entities/s", "p50 ms", "p95 ms", "p99 ms", "max ms", "errors", "retries"].map((c) =>
            h("th", {}, c),
          ),
        ),
      ),
      h(
        "tbody",
        {},
        ...ops.map((op) => {
          const o = r.operations[op];
          // Calls answered and failed alike, as the CLI's summary counts them.
          const calls = o.count + Object.values(o.errors).reduce((n, k) => n + k, 0);
          return h(
            "tr",
            { dataset: { op } },
            h("td", {}, OP_WORDS[op]),
            h("td", {}, formatCount(calls)),
            h("td", {}, formatCount(o.entities)),
            h("td", {}, formatCount(o.entitiesPerSecond)),
            h("td", {}, formatCount(o.latencyMs.p50)),
            h("td", {}, formatCount(o.latencyMs.p95)),
            h("td", {}, formatCount(o.latencyMs.p99)),
            h("td", {}, formatCount(o.latencyMs.max)),
            h("td", { class: "errors" }, errorsInWords(o.errorCodes ?? {}, o.errors)),
            h("td", {}, formatCount(o.retries)),
          );
        }),
      ),
    ),
  );
}

/** "No errors." or the run's errors by code, summed over its operations. */
function errorsLine(r: StressReport, ops: OpType[]): HTMLElement {
  const codes: Record<string, number> = {};
  for (const op of ops) {
    const o = r.operations[op];
    for (const [code, n] of Object.entries(Object.keys(o.errorCodes ?? {}).length ? o.errorCodes : o.errors))
      codes[code] = (codes[code] ?? 0) + n;
  }
  const words = errorsInWords(codes);
  return h("p", { class: `errors-line ${words === "none" ? "ok" : "failed"}` }, words === "none" ? "No errors." : `Errors: ${words}.`);
}

/**
 * Design mode: one table of each access pattern's figures side by side —
 * planned, offered, sent, served, throttled (core/text/figures.ts) — with
 * the legend that defines them, and the patterns that did not run.
 */
function patternsTable(r: StressReport): HTMLElement | undefined {
  const rows = figureRows(r);
  const skipped = r.skipped ?? [];
  if (!rows.length && !skipped.length) return undefined;
  const cell = (n: number | undefined) => (n === undefined ? "–" : formatCount(n));
  return h(
    "div",
    { class: "patterns" },
    h("h2", {}, "Access patterns (calls per second)"),
    rows.length
      ? h(
          "div",
          { class: "table-scroll" },
          h(
            "table",
            { class: "ops patterns-table" },
            h(
              "thead",
              {},
              h(
                "tr",
                {},
                h("th", {}, "pattern"),
                h("th", {}, "ran as"),
                ...FIGURE_NAMES.map((f) => h("th", { title: FIGURES[f].definition }, FIGURES[f].word)),
                h("th", {}, "calls"),
                h("th", {}, "failed"),
              ),
            ),
            h(
              "tbody",
              {},
              ...rows.map((row) =>
                h(
                  "tr",
                  { dataset: { pattern: row.name } },
                  h("td", {}, row.name),
                  h("td", {}, OP_WORDS[row.pattern.op] + (row.pattern.queryClass ? ` · ${row.pattern.queryClass}` : "")),
                  ...FIGURE_NAMES.map((f) => h("td", { dataset: { figure: f } }, cell(row.figures[f]))),
                  h("td", {}, formatCount(row.pattern.calls)),
                  h("td", {}, formatCount(row.pattern.failed)),
                ),
              ),
            ),
          ),
        )
      : undefined,
    rows.length
      ? h(
          "dl",
          { class: "legend" },
          ...FIGURE_NAMES.flatMap((f) => [h("dt", {}, `${FIGURES[f].word} (${FIGURES[f].unit})`), h("dd", {}, FIGURES[f].definition)]),
        )
      : undefined,
    ...skipped.map((s) => h("p", { class: "skipped" }, `${s.source} did not run: ${s.reason}.`)),
  );
}
