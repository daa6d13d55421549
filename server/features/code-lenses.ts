/**
 * Code lenses. Above each table of a design: what its declared load costs
 * a month (ide/cost.ts; the hover on its name says more), then run its
 * stress test, check it against live data, generate its key builders (the
 * extension's commands, from the one list); above each query, of a design
 * or of code, its class and estimates (informational, no command). Bounded by
 * `REQUEST_BUDGET.lenses`: the last lens says where the lenses stop.
 */
import { CodeLens, CodeLensParams } from "vscode-languageserver/node";
import { Classification, queryInfos, summary } from "@core";
import { formatCount } from "@core/text/words";
import { COMMANDS } from "@protocol/commands";
import { feature, RequestScope } from "../lsp/feature";
import { REQUEST_BUDGET } from "../lsp/budget";
import { costLens } from "../ide/cost";

/** The commands above each table, in order. */
const TABLE_LENSES = [
  { title: "Stress test", command: COMMANDS.runStressTest.id },
  { title: "Check against live data", command: COMMANDS.checkLiveData.id },
  { title: "Generate key builders", command: COMMANDS.generateKeyBuilders.id },
] as const;

export const codeLenses = feature<CodeLensParams, CodeLens[]>({
  name: "code lenses",
  method: "textDocument/codeLens",
  capabilities: { codeLensProvider: { resolveProvider: false } },
  empty: [],
  answer(params, scope) {
    const code = scope.code(params);
    if (code) {
      const { result, lines } = code;
      return bounded(
        scope,
        result.queries.map((q) => ({
          range: lines.range(q.start, q.start),
          command: { title: q.classification ? tsLens(q.classification) : "filter not known statically", command: "" },
        })),
      );
    }
    const design = scope.design(params);
    if (!design) return undefined;
    const { analysis, lines, uri } = design;
    const lenses: CodeLens[] = [];
    for (const t of analysis.tables) {
      if (lenses.length > REQUEST_BUDGET.lenses) break;
      const name = t.table.name;
      if (!name.text) continue;
      const range = lines.range(t.base + name.start, t.base + name.end);
      const cost = costLens(analysis, t);
      if (cost) lenses.push({ range, command: { title: cost, command: "" } });
      for (const l of TABLE_LENSES) lenses.push({ range, command: { title: l.title, command: l.command, arguments: [uri, name.text] } });
    }
    for (const q of queryInfos(analysis)) {
      if (lenses.length > REQUEST_BUDGET.lenses) break;
      if (q.classification) lenses.push({ range: lines.range(q.start, q.end), command: { title: summary(q.classification), command: "" } });
    }
    return bounded(scope, lenses);
  },
});

/** At most the budget's lenses, the last of which says where they stop. */
function bounded(scope: RequestScope, lenses: CodeLens[]): CodeLens[] {
  if (lenses.length <= REQUEST_BUDGET.lenses) return lenses;
  const kept = lenses.slice(0, REQUEST_BUDGET.lenses - 1);
  const reason = `code lenses stop here: this document shows ${formatCount(REQUEST_BUDGET.lenses)} at most`;
  scope.skipped(reason);
  kept.push({ range: lenses[kept.length].range, command: { title: reason, command: "" } });
  return kept;
}

function tsLens(c: Classification): string {
  return c.class === "table-scan" ? "table-scan · scans every partition" : summary(c);
}
