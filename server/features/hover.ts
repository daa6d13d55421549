/** Hover in designs: a property's type and values, a key's example and order, a query's class and estimates. */
import { Hover, HoverParams } from "vscode-languageserver/node";
import { hover as hoverAt } from "../ide";
import { feature } from "../lsp/feature";
import { requestPosition } from "../lsp/params";
import { termsDocUri } from "../lsp/rule-docs";

export const hover = feature<HoverParams, Hover | null>({
  name: "hover",
  method: "textDocument/hover",
  capabilities: { hoverProvider: true },
  empty: null,
  answer(params, scope) {
    const position = requestPosition(params);
    const design = scope.design(params);
    if (!design) return undefined;
    const { analysis, lines } = design;
    const h = hoverAt(analysis, lines.offset(position), termsDocUri());
    return h ? { contents: { kind: "markdown", value: h.markdown }, range: lines.range(h.start, h.end) } : null;
  },
});
