/**
 * What `tdl stress` prints when it is not asked for JSON: the verdict
 * first (a sentence of verdict, one of cause), then the figures a user
 * checks — the hottest partition against its target, how the run was
 * scaled to the machine, what the design's declared load costs (as `tdl
 * cost` prices it) and what the run billed, per operation the calls, rate,
 * p50/p99 latency and errors, and in design mode one table of each access
 * pattern's figures (core/text/figures.ts) with their legend.
 */
import { entityRate, errorsInWords, formatCount, formatFactor, plural } from "@core/text/words";
import { FIGURES, figureLegendLine } from "@core/text/figures";
import { SNAPSHOT } from "@core/cost/snapshot";
import { OP_TYPES, type StressReport } from "@protocol";
import { FIGURE_NAMES, figureRows } from "@protocol/run-figures";
import { runCostLine } from "@protocol/run-cost";

const OP_WORDS: Record<string, string> = {
  insert: "insert",
  update: "update",
  delete: "delete",
  pointRead: "point read",
  query: "key-range query",
  scan: "table scan",
  transaction: "transaction",
};

export function summary(r: StressReport, reportFile?: string): string {
  const v = r.verdict;
  const lines = [
    `${r.mode} on ${r.target} · design table ${r.design.table} · ${(r.durationMs / 1000).toFixed(1)} s at concurrency ${r.concurrency} · stress table ${r.table}` +
      (r.engine ? ` · Locust, ${plural(r.engine.workers, "worker")}` : ""),
    `verdict: ${v.headline}`,
    `  hottest partition ${entityRate(v.hottestPartitionEntitiesPerSecond)} against a target of ${entityRate(v.partitionTargetEntitiesPerSecond)}` +
      (v.throttled.partition || v.throttled.account
        ? `; throttled: ${plural(v.throttled.partition, "request")} at a partition, ${formatCount(v.throttled.account)} at the account`
        : "; nothing throttled"),
  ];
  if (r.calibration) {
    const c = r.calibration;
    lines.push(
      c.capacityEntitiesPerSecond !== undefined
        ? `scaled: this machine served ${entityRate(c.capacityEntitiesPerSecond)} in the calibration probe; targets${r.mode === "design" ? " and the design's rates" : ""} × ${formatFactor(c.scale)} (partition ${entityRate(c.partitionTargetEntitiesPerSecond)}, account ${entityRate(c.accountTargetEntitiesPerSecond)})`
        : `scaled: targets${r.mode === "design" ? " and the design's rates" : ""} × ${formatFactor(c.scale)} as asked (partition ${entityRate(c.partitionTargetEntitiesPerSecond)}, account ${entityRate(c.accountTargetEntitiesPerSecond)})`,
    );
  }
  lines.push(`cost: ${runCostLine(r, SNAPSHOT)}`);
  const rows = OP_TYPES.map((op) => [op, r.operations[op]] as const).filter(([, o]) => o.count || Object.keys(o.errors).length);
  if (rows.length) {
    lines.push(
      `  ${"operation".padEnd(16)} ${"calls".padStart(7)} ${"entities/s".padStart(11)} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)}  errors`,
    );
    for (const [op, o] of rows) {
      const failed = Object.values(o.errors).reduce((s, n) => s + n, 0);
      lines.push(
        `  ${OP_WORDS[op].padEnd(16)} ${formatCount(o.count + failed).padStart(7)} ${formatCount(o.entitiesPerSecond).padStart(11)} ${(o.count ? String(o.latencyMs.p50) : "–").padStart(8)} ${(o.count ? String(o.latencyMs.p99) : "–").padStart(8)}  ${errorsInWords(o.errorCodes, o.errors)}${o.retries ? ` (${plural(o.retries, "retry", "retries")})` : ""}`,
      );
    }
  } else {
    lines.push("  no operation ran");
  }
  lines.push(...patternTable(r));
  for (const s of r.skipped ?? []) lines.push(`  pattern ${s.source}: did not run (${s.reason})`);
  lines.push(`  ${plural(r.partitionCount, "partition")} touched`, `note: ${v.note}`);
  if (reportFile) lines.push(`report: ${reportFile}`);
  return lines.join("\n") + "\n";
}

/** One row per access pattern: the call it ran as and its five figures, with the legend under the table. */
function patternTable(r: StressReport): string[] {
  const rows = figureRows(r);
  if (!rows.length) return [];
  const ranAs = (p: (typeof rows)[number]["pattern"]) => `${p.queryClass ? `${p.queryClass} as ` : ""}${OP_WORDS[p.op]}`;
  const nameWidth = Math.max(7, ...rows.map((row) => row.name.length));
  const asWidth = Math.max(6, ...rows.map((row) => ranAs(row.pattern).length));
  const cell = (n: number | undefined) => (n === undefined ? "–" : formatCount(n)).padStart(9);
  return [
    `  ${"pattern".padEnd(nameWidth)} ${"ran as".padEnd(asWidth)} ${FIGURE_NAMES.map((f) => FIGURES[f].word.padStart(9)).join(" ")}  calls`,
    ...rows.map(
      (row) =>
        `  ${row.name.padEnd(nameWidth)} ${ranAs(row.pattern).padEnd(asWidth)} ${FIGURE_NAMES.map((f) => cell(row.figures[f])).join(" ")}  ${formatCount(row.pattern.calls)}${row.pattern.failed ? ` (${formatCount(row.pattern.failed)} failed)` : ""}`,
    ),
    ...FIGURE_NAMES.map((f) => `    ${figureLegendLine(f)}`),
  ];
}
