/**
 * `throughput/account`: the peak entities per second of every pattern in
 * the file, against the account's target.
 */
import { tableFacts } from "../model/facts";
import { formatCount } from "../text/words";
import { Rule } from "./rule";

export const account: Rule = {
  code: "throughput/account",
  severity: "warning",
  family: "Partitions and load",
  docs: {
    summary: "every pattern of the file together exceeds the account target (Azure: 20,000 entities/s)",
    why: "Past the account target the service throttles the whole account; spread the load over several accounts or tables.",
  },
  checkFile(ctx) {
    const target = ctx.profile.accountTargetEntitiesPerSecond;
    if (!target) return;
    const loads = ctx.tables.filter((t) => !t.table.hasSyntaxError).map((t) => ({ t, total: tableFacts(t.table, t.props).load.total }));
    const total = loads.reduce((s, l) => s + l.total, 0);
    if (total <= target || !loads.length) return;
    const top = loads.reduce((a, b) => (b.total > a.total ? b : a));
    const name = top.t.table.name;
    ctx.report(
      { start: top.t.base + name.start, end: top.t.base + name.end },
      `the patterns of this design total ≈ ${formatCount(total)} entities/s at peak (table '${name.text}': ≈ ${formatCount(top.total)}); ` +
        `the ${ctx.profile.label} account target is ${formatCount(target)} entities/s. Spread the load over several storage accounts or tables.`,
    );
  },
};
