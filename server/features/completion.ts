/** Completion in designs: what fits where the caret is (server/ide/completion.ts). */
import { CompletionItem, CompletionParams } from "vscode-languageserver/node";
import { complete } from "../ide";
import { toCompletionItem } from "../lsp/convert";
import { feature } from "../lsp/feature";
import { requestPosition } from "../lsp/params";
import { REQUEST_BUDGET } from "../lsp/budget";

export const completion = feature<CompletionParams, CompletionItem[]>({
  name: "completion",
  method: "textDocument/completion",
  capabilities: { completionProvider: { triggerCharacters: [":", "=", "+", "(", " ", ","] } },
  empty: [],
  answer(params, scope) {
    const position = requestPosition(params);
    const design = scope.design(params);
    if (!design) return undefined;
    const items = complete(design.analysis, design.lines.offset(position), {
      maxChars: REQUEST_BUDGET.completionChars,
      skipped: (reason) => scope.skipped(reason),
    });
    return items.map(toCompletionItem);
  },
});
