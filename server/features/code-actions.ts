/**
 * Quick fixes: a design's are checked when asked for (lsp/vetted-fixes.ts);
 * the others are rebuilt from the `data` of the diagnostics the client
 * sends back (lsp/convert.ts).
 */
import { CodeAction, CodeActionParams } from "vscode-languageserver/node";
import { codeActionsFor } from "../lsp/convert";
import { feature } from "../lsp/feature";
import { contextDiagnostics, documentUri } from "../lsp/params";
import { vettedCodeActions } from "../lsp/vetted-fixes";

export const codeActions = feature<CodeActionParams, CodeAction[]>({
  name: "code actions",
  method: "textDocument/codeAction",
  capabilities: { codeActionProvider: { codeActionKinds: ["quickfix"] } },
  empty: [],
  answer: (params, scope) => {
    const diagnostics = contextDiagnostics(params);
    const design = scope.design(params);
    return design ? vettedCodeActions(design, diagnostics) : codeActionsFor(documentUri(params), diagnostics);
  },
});
