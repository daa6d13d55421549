/**
 * `throughput/account`: the peak entities per second of every pattern in
 * the file, against the account's target. A table scan's reads are not
 * load to spread over accounts but the cost of that query: when the scans
 * are what passes the target, the finding names them and points to
 * `query/table-scan` instead of advising more accounts.
 */
import { tableFacts } from "../model/facts";
import { formatCount, listNames } from "../text/words";
import { defineRule } from "./rule";

export const account = defineRule({
  code: "throughput/account",
  severity: "warning",
  family: "Partitions and load",
  docs: {
    summary:
      "every pattern of the file together exceeds the account target (Azure: 20,000 entities/s); a table scan's reads count as that query's cost, named in the message",
    why: "Past the account target the service throttles the whole account; spread the load over several accounts or tables. A scan's reads grow with the table: key the query instead.",
  },
  messages: {
    total: (p: { total: number; table: string; tableTotal: number; service: string; target: number; scanned: number }) =>
      `the patterns of this design total ≈ ${formatCount(p.total)} entities/s at peak (table '${p.table}': ≈ ${formatCount(p.tableTotal)}); ` +
      `the ${p.service} account target is ${formatCount(p.target)} entities/s. Spread the load over several storage accounts or tables.` +
      (p.scanned > 0 ? ` (Table scans read ≈ ${formatCount(p.scanned)} entities/s more: see query/table-scan.)` : ""),
    scans: (p: { scanned: number; queries: string[]; table: string; service: string; target: number; total: number }) =>
      `the table scans of this design read ≈ ${formatCount(p.scanned)} entities/s at peak (${listNames(
        p.queries.map((q) => `'${q}'`),
        3,
      )} of table '${p.table}'), ` +
      `past the ${p.service} account target of ${formatCount(p.target)} entities/s; the other patterns total ≈ ${formatCount(p.total)}. ` +
      `A scan's reads grow with the table, not with the load: key the ${p.queries.length === 1 ? "query" : "queries"} so that ${p.queries.length === 1 ? "it is" : "they are"} not a scan (query/table-scan), rather than spread over accounts.`,
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
      ctx.report(at(top), "total", { total, table: name, tableTotal: top.total, service: ctx.profile.label, target, scanned });
      return;
    }
    const scanning = loads.filter((l) => l.scans.length).reduce((a, b) => (sum(b) > sum(a) ? b : a));
    ctx.report(at(scanning), "scans", {
      scanned,
      queries: scanning.scans.map((p) => p.access.name.text),
      table: scanning.t.table.name.text,
      service: ctx.profile.label,
      target,
      total,
    });
  },
});

function sum(l: { scans: Array<{ total: number }> }): number {
  return l.scans.reduce((n, p) => n + p.total, 0);
}
