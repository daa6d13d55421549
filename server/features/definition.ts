/** Go to definition: a property's declaration from any place its table names it. */
import { DefinitionParams, Location } from "vscode-languageserver/node";
import { definition as definitionAt } from "../ide";
import { feature } from "../lsp/feature";
import { requestPosition } from "../lsp/params";

export const definition = feature<DefinitionParams, Location | null>({
  name: "definition",
  method: "textDocument/definition",
  capabilities: { definitionProvider: true },
  empty: null,
  answer(params, scope) {
    const position = requestPosition(params);
    const design = scope.design(params);
    if (!design) return undefined;
    const d = definitionAt(design.analysis, design.lines.offset(position));
    return d ? { uri: design.uri, range: design.lines.range(d.start, d.end) } : null;
  },
});
