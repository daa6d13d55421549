/** Find references: every place a property's table names it (bounded by `REQUEST_BUDGET.locations`). */
import { Location, ReferenceParams } from "vscode-languageserver/node";
import { formatCount } from "@core/text/words";
import { references as referencesAt } from "../ide";
import { feature } from "../lsp/feature";
import { isObject, requestPosition } from "../lsp/params";
import { REQUEST_BUDGET } from "../lsp/budget";

export const references = feature<ReferenceParams, Location[]>({
  name: "references",
  method: "textDocument/references",
  capabilities: { referencesProvider: true },
  empty: [],
  answer(params, scope) {
    const position = requestPosition(params);
    const includeDeclaration = isObject(params.context) && params.context.includeDeclaration === true;
    const design = scope.design(params);
    if (!design) return undefined;
    const found = referencesAt(design.analysis, design.lines.offset(position), includeDeclaration);
    return scope
      .bounded(found, REQUEST_BUDGET.locations, (n) => `the first ${formatCount(REQUEST_BUDGET.locations)} of ${formatCount(n)} references`)
      .map((r) => ({ uri: design.uri, range: design.lines.range(r.start, r.end) }));
  },
});
