/**
 * `throughput/account`: the peak entities per second of every pattern of an
 * account, against the account's target. A file is one account unless its
 * tables say otherwise (`account Name`): the tables of one account add up,
 * so the fix is to move a table to an account of its own — checked like
 * every fix — or, when no move of one table brings the account under its
 * target, the finding says why. A table scan's reads are not load to spread
 * over accounts but the cost of that query: when the scans are what passes
 * the target, the finding says what one call reads and how long it takes
 * at the account's target, and points to `query/table-scan`.
 */
import type { TableModel } from "../model/table-model";
import { tableFacts } from "../model/facts";
import { accountOf } from "../model/updates";
import { formatDuration } from "../tdl/numbers";
import { detectEol, indentOf } from "../tdl/line-ends";
import { formatCount, listNames } from "../text/words";
import { Fix } from "../findings";
import { defineRule } from "./rule";

/** What moving a table to an account of its own costs, as the fix's title says it. */
const MOVE_COST = "a storage account has no fixed charge: its requests and data are billed as before, and the application connects to it";

export const account = defineRule({
  code: "throughput/account",
  severity: "warning",
  family: "Partitions and load",
  docs: {
    summary:
      "the patterns of one account together exceed its target (Azure: 20,000 entities/s); a file is one account unless its tables say `account Name`; a table scan's reads count as that query's cost, named in the message",
    why: "Past the account target the service throttles the whole account. Tables of one account add up, so more tables in it do not help; an account of their own does. A scan's reads grow with the table: key the query instead.",
    fix: "move the busiest table that fits into an account of its own (`account Name`), when that brings both accounts under the target",
  },
  messages: {
    total: (p: { total: number; table: string; tableTotal: number; service: string; target: number; scanned: number; account: string }) =>
      `the patterns of ${p.account ? `account '${p.account}'` : "this design"} total ≈ ${formatCount(p.total)} entities/s at peak (table '${p.table}': ≈ ${formatCount(p.tableTotal)}); ` +
      `the ${p.service} account target is ${formatCount(p.target)} entities/s. Put a table in an account of its own (\`account Name\` in the table).` +
      (p.scanned > 0 ? ` (Table scans read ≈ ${formatCount(p.scanned)} entities/s more: see query/table-scan.)` : ""),
    alone: (p: { total: number; table: string; tableTotal: number; service: string; target: number; account: string }) =>
      `table '${p.table}' alone takes ≈ ${formatCount(p.tableTotal)} entities/s at peak, past the ${p.service} account target of ${formatCount(p.target)} entities/s ` +
      `(${p.account ? `account '${p.account}'` : "this design"}: ≈ ${formatCount(p.total)}). No account holds it: moving tables does not help; ` +
      `split its partitions over several accounts by a prefix of the partition key, or lower its rates.`,
    noSingleMove: (p: { total: number; table: string; tableTotal: number; service: string; target: number; account: string }) =>
      `the patterns of ${p.account ? `account '${p.account}'` : "this design"} total ≈ ${formatCount(p.total)} entities/s at peak (table '${p.table}': ≈ ${formatCount(p.tableTotal)}); ` +
      `the ${p.service} account target is ${formatCount(p.target)} entities/s, and no one table's move brings both accounts under it: ` +
      `give several tables accounts of their own (\`account Name\` in each).`,
    scans: (p: {
      scanned: number;
      queries: string[];
      table: string;
      service: string;
      target: number;
      total: number;
      perCall: number;
      callSeconds: number;
    }) =>
      `the table scans of this design (${listNames(
        p.queries.map((q) => `'${q}'`),
        3,
      )} of table '${p.table}') read every partition: one call reads ≈ ${formatCount(p.perCall)} entities, ` +
      `${formatDuration(p.callSeconds)} at the ${p.service} account target of ${formatCount(p.target)} entities/s; the other patterns total ≈ ${formatCount(p.total)} entities/s. ` +
      `A scan's reads grow with the table, not with the load: key the ${p.queries.length === 1 ? "query" : "queries"} so that ${p.queries.length === 1 ? "it is" : "they are"} not a scan (query/table-scan), rather than spread over accounts.`,
  },

  checkFile(ctx) {
    const target = ctx.profile.accountTargetEntitiesPerSecond;
    if (!target) return;
    const loads = ctx.tables
      .filter((t) => !t.table.hasSyntaxError)
      .map((t) => {
        const load = tableFacts(t.table, t.props).load;
        return { t, total: load.total, scans: load.patterns.filter((p) => p.scan), account: accountOf(t.table) };
      });
    const accounts = [...new Set(loads.map((l) => l.account))];
    const taken = new Set(accounts);
    for (const name of accounts) {
      const group = loads.filter((l) => l.account === name);
      const total = group.reduce((s, l) => s + l.total, 0);
      const scanned = group.reduce((s, l) => s + sum(l), 0);
      if (total + scanned <= target) continue;
      const top = group.reduce((a, b) => (b.total > a.total ? b : a));
      const at = (l: (typeof loads)[number]) => ({ start: l.t.base + l.t.table.name.start, end: l.t.base + l.t.table.name.end });
      const base = { total, table: top.t.table.name.text, tableTotal: top.total, service: ctx.profile.label, target, account: name };
      if (total > target) {
        if (top.total > target) {
          ctx.report(at(top), "alone", base);
          continue;
        }
        // A move that leaves both accounts under the target: the busiest table that fits first.
        const moves = group
          .filter((l) => l.total > 0 && l.total <= target && total - l.total <= target)
          .sort((a, b) => b.total - a.total)
          .map((l) => moveFix(ctx.text, l.t, taken));
        if (!moves.length) ctx.report(at(top), "noSingleMove", base);
        else ctx.report(at(top), "total", { ...base, scanned }, { fixes: moves });
        continue;
      }
      const scanning = group.filter((l) => l.scans.length).reduce((a, b) => (sum(b) > sum(a) ? b : a));
      const calls = scanning.scans.reduce((n, p) => n + (p.access.rate?.perSecond ?? 0), 0);
      const perCall = calls > 0 ? sum(scanning) / calls : 0;
      ctx.report(at(scanning), "scans", {
        scanned,
        queries: scanning.scans.map((p) => p.access.name.text),
        table: scanning.t.table.name.text,
        service: ctx.profile.label,
        target,
        total,
        perCall,
        callSeconds: perCall / target,
      });
    }
  },
});

function sum(l: { scans: Array<{ total: number }> }): number {
  return l.scans.reduce((n, p) => n + p.total, 0);
}

/** `account readings` added to the table (or its `account` line renamed): the table in an account of its own. */
function moveFix(text: string, tm: TableModel, taken: ReadonlySet<string>): Fix {
  const t = tm.table;
  const stem = t.name.text.charAt(0).toLowerCase() + t.name.text.slice(1);
  let name = stem;
  for (let i = 2; taken.has(name); i++) name = `${stem}${i}`;
  const title = `Move table ${t.name.text} to an account of its own: account ${name} (${MOVE_COST})`;
  if (t.account) return { title, edits: [{ start: tm.base + t.account.name.start, end: tm.base + t.account.name.end, newText: name }] };
  const last = t.members[t.members.length - 1];
  const anchor = last ? tm.base + last.end : tm.base + t.open + 1;
  const indent = last ? indentOf(text, tm.base + last.start) : "  ";
  return { title, edits: [{ start: anchor, end: anchor, newText: `${detectEol(text)}${indent}account ${name}` }] };
}
