/**
 * The outline of a design: its tables with their members. Bounded: past
 * `REQUEST_BUDGET.outlineSymbols` entries the outline stops, and its last
 * entry — where the user looks — says what it left out.
 */
import { DocumentSymbol, DocumentSymbolParams, SymbolKind } from "vscode-languageserver/node";
import { formatCount, plural } from "@core/text/words";
import { boundedOutline, OutlineCut } from "../ide";
import { toDocumentSymbol } from "../lsp/convert";
import { feature } from "../lsp/feature";
import { REQUEST_BUDGET } from "../lsp/budget";

export const documentSymbols = feature<DocumentSymbolParams, DocumentSymbol[]>({
  name: "document symbols",
  method: "textDocument/documentSymbol",
  capabilities: { documentSymbolProvider: true },
  empty: [],
  answer(params, scope) {
    const design = scope.design(params);
    if (!design) return undefined;
    const { lines } = design;
    const { symbols, cut } = boundedOutline(design.analysis, REQUEST_BUDGET.outlineSymbols);
    const answer = symbols.map((s) => toDocumentSymbol(lines, s));
    if (cut) {
      const reason = omitted(cut);
      scope.skipped(reason);
      const range = lines.range(cut.start, cut.end);
      answer.push({ name: "… not listed", detail: reason, kind: SymbolKind.Null, range, selectionRange: range, children: [] });
    }
    return answer;
  },
});

/** What the outline left out: "2,717 of 7,717 tables not listed, from 'Orders5000' on: …". */
function omitted(cut: OutlineCut): string {
  const after = cut.tables ? ` (and the ${plural(cut.tables, "table")} after it)` : "";
  const what = cut.members
    ? `the last ${plural(cut.members, "member")} of the first table${after}`
    : `${formatCount(cut.tables)} of ${plural(cut.total, "table")}`;
  return `${what} not listed, from '${cut.name}' on: the outline lists ${formatCount(REQUEST_BUDGET.outlineSymbols)} entries at most`;
}
