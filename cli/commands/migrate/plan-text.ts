/**
 * `tdl migrate plan`'s text: per old table, the rows each entity becomes and
 * their keys, where each key component comes from (or why it has none), the
 * write amplification, the backfill's time and cost, then the steps.
 */
import type { MigrationPlan } from "@core";
import { formatCount, formatDuration, formatPercent } from "@core/text/words";

/** The plan as a reader follows it, top to bottom. */
export function planText(plan: MigrationPlan): string {
  const out: string[] = [];
  for (const t of plan.tables) {
    out.push(`${t.table}: each entity becomes ${t.amplification} row${t.amplification === 1 ? "" : "s"}`);
    for (const r of t.rows) out.push(`  ${r.table} (${r.label}): PartitionKey = ${r.partitionKey}, RowKey = ${r.rowKey}`);
    for (const c of t.components) out.push(`  ${c.prop} (${c.usedBy.join(", ")}) from ${c.from}`);
    for (const r of t.refused) out.push(`  refused: ${r.reason}`);
    if (t.entities === undefined) out.push(`  size unknown: the old design declares no rows (--entities N sizes it)`);
    else {
      out.push(
        `  ${formatCount(t.entities)} entities: ${formatCount(t.writes!)} writes (amplification ${t.amplification}), ${formatCount(t.reads!)} query pages; ${formatCount(t.transactions!)} transactions${t.requestUnits !== undefined ? `, ${formatCount(t.requestUnits)} request units` : ""}`,
      );
      if (t.seconds !== undefined)
        out.push(
          `  ${formatDuration(t.seconds)} at ${formatPercent(plan.share)} of ${plan.targetService}'s account target (${formatCount(Math.round(t.rate!))} entities/s)`,
        );
    }
  }
  if (!plan.tables.length) out.push("no table of the old design maps onto a table of the new one");
  out.push("", "steps:");
  plan.steps.forEach((s, i) => out.push(`  ${i + 1}. ${s}`));
  return out.join("\n") + "\n";
}
