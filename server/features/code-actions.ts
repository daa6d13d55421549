/**
 * Quick fixes: a design's are checked when asked for (lsp/vetted-fixes.ts);
 * the others are rebuilt from the `data` of the diagnostics the client
 * sends back (lsp/convert.ts). Then, for every finding of ours, the fix
 * that silences it on its line with `// tdl-ignore-next-line CODE`
 * (ide/ignore-fix.ts), last and never preferred.
 */
import { CodeAction, CodeActionKind, CodeActionParams, Diagnostic, DiagnosticSeverity } from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { LineIndex } from "@core";
import { ignoreEdit, ignoreTitle } from "../ide/ignore-fix";
import { codeActionsFor } from "../lsp/convert";
import { feature } from "../lsp/feature";
import { contextDiagnostics, documentUri, isObject } from "../lsp/params";
import { vettedCodeActions } from "../lsp/vetted-fixes";

export const codeActions = feature<CodeActionParams, CodeAction[]>({
  name: "code actions",
  method: "textDocument/codeAction",
  capabilities: { codeActionProvider: { codeActionKinds: ["quickfix"] } },
  empty: [],
  answer(params, scope) {
    const diagnostics = contextDiagnostics(params);
    const design = scope.design(params);
    const actions = once(design ? vettedCodeActions(design, diagnostics) : codeActionsFor(documentUri(params), diagnostics));
    const doc = scope.document(params);
    return doc ? [...actions, ...ignoreActions(doc, diagnostics)] : actions;
  },
});

/**
 * Each fix once: two findings on one key (append-only and hot) often offer the same edit, which the
 * menu would list twice; the first keeps its place (and whether it is preferred) and fixes both.
 */
function once(actions: CodeAction[]): CodeAction[] {
  const seen = new Map<string, CodeAction>();
  for (const a of actions) {
    const key = `${a.title}\u0000${JSON.stringify(a.edit ?? a.command ?? null)}`;
    const first = seen.get(key);
    if (!first) seen.set(key, a);
    else if (a.diagnostics?.length) first.diagnostics = [...(first.diagnostics ?? []), ...a.diagnostics];
  }
  return [...seen.values()];
}

/** One "ignore" action per code and line among the diagnostics of ours the client sent (they are untrusted: checked one by one). */
function ignoreActions(doc: TextDocument, diagnostics: unknown[]): CodeAction[] {
  const text = doc.getText();
  const lines = new LineIndex(text);
  const done = new Set<string>();
  const actions: CodeAction[] = [];
  for (const d of diagnostics) {
    if (!isObject(d) || d.source !== "tdl" || typeof d.code !== "string" || d.severity === DiagnosticSeverity.Hint) continue;
    const start = isObject(d.range) && isObject(d.range.start) ? d.range.start.line : undefined;
    if (typeof start !== "number" || !Number.isInteger(start)) continue;
    const key = `${d.code}\u0000${start}`;
    if (done.has(key)) continue;
    done.add(key);
    const edit = ignoreEdit(text, start, d.code, lines);
    if (!edit) continue;
    actions.push({
      title: ignoreTitle(d.code),
      kind: CodeActionKind.QuickFix,
      diagnostics: [d as unknown as Diagnostic],
      isPreferred: false,
      edit: { changes: { [doc.uri]: [{ range: lines.range(edit.start, edit.end), newText: edit.newText }] } },
    });
  }
  return actions;
}
