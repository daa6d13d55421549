/**
 * `throughput/account`: the peak entities per second of every pattern in
 * the file, against the account's target. A table scan's reads are not
 * load to spread over accounts but the cost of that query: when the scans
 * are what passes the target, the finding names them and points to
 * `query/table-scan` instead of advising more accounts.
 */
import { tableFacts } from "../model/facts";
import { formatCount, listNames } from "../text/words";
import { Rule } from "./rule";

export const account: Rule = {
  code: "throughput/account",
  severity: "warning",
  family: "Partitions and load",
  docs: {
    summary:
      "every pattern of the file together exceeds the account target (Azure: 20,000 entities/s); a table scan's reads count as that query's cost, named in the message",
    why: "Past the account target the service throttles the whole account; spread the load over several accounts or tables. A scan's reads grow with the table: key the query instead.",
  },
  checkFile(ctx) {
    const target = ctx.profile.accountTargetEntitiesPerSecond;
    if (!target) return;
    const loads = ctx.tables
      .filter((t) => !t.table.hasSyntaxError)
      .map((t) => {
        const load = tableFacts(t.table, t.props).load;
        return { t, total: load.total, scans: load.patterns.filter((p) => p.scan) };
      });
    if (!loads.length) return;
    const total = loads.reduce((s, l) => s + l.total, 0);
    const scanned = loads.reduce((s, l) => s + l.scans.reduce((n, p) => n + p.total, 0), 0);
    if (total + scanned <= target) return;
    const top = loads.reduce((a, b) => (b.total > a.total ? b : a));
    const at = (l: (typeof loads)[number]) => ({ start: l.t.base + l.t.table.name.start, end: l.t.base + l.t.table.name.end });
    if (total > target) {
      const name = top.t.table.name.text;
      ctx.report(
        at(top),
        `the patterns of this design total ≈ ${formatCount(total)} entities/s at peak (table '${name}': ≈ ${formatCount(top.total)}); ` +
          `the ${ctx.profile.label} account target is ${formatCount(target)} entities/s. Spread the load over several storage accounts or tables.` +
          (scanned > 0 ? ` (Table scans read ≈ ${formatCount(scanned)} entities/s more: see query/table-scan.)` : ""),
      );
      return;
    }
    const scanning = loads.filter((l) => l.scans.length).reduce((a, b) => (sum(b) > sum(a) ? b : a));
    const names = scanning.scans.map((p) => `'${p.access.name.text}'`);
    ctx.report(
      at(scanning),
      `the table scans of this design read ≈ ${formatCount(scanned)} entities/s at peak (${listNames(names, 3)} of table '${scanning.t.table.name.text}'), ` +
        `past the ${ctx.profile.label} account target of ${formatCount(target)} entities/s; the other patterns total ≈ ${formatCount(total)}. ` +
        `A scan's reads grow with the table, not with the load: key the ${names.length === 1 ? "query" : "queries"} so that ${names.length === 1 ? "it is" : "they are"} not a scan (query/table-scan), rather than spread over accounts.`,
    );
  },
};

function sum(l: { scans: Array<{ total: number }> }): number {
  return l.scans.reduce((n, p) => n + p.total, 0);
}
