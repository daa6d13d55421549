/**
 * Rename a property: its declaration, keys, conditions, `select`, filters
 * and `sharing` (server/ide/navigation.ts). A name that is not a property
 * name, or one the table already has, is refused with its sentence.
 */
import { PrepareRenameParams, Range, RenameParams, WorkspaceEdit } from "vscode-languageserver/node";
import { prepareRename as prepareAt, rename as renameAt } from "../ide";
import { feature } from "../lsp/feature";
import { newName, requestPosition } from "../lsp/params";

export const prepareRename = feature<PrepareRenameParams, { range: Range; placeholder: string } | null>({
  name: "prepare rename",
  method: "textDocument/prepareRename",
  empty: null,
  answer(params, scope) {
    const position = requestPosition(params);
    const design = scope.design(params);
    if (!design) return undefined;
    const r = prepareAt(design.analysis, design.lines.offset(position));
    return r ? { range: design.lines.range(r.start, r.end), placeholder: r.placeholder } : null;
  },
});

export const rename = feature<RenameParams, WorkspaceEdit | null>({
  name: "rename",
  method: "textDocument/rename",
  capabilities: { renameProvider: { prepareProvider: true } },
  empty: null,
  answer(params, scope) {
    const position = requestPosition(params);
    const name = newName(params);
    const design = scope.design(params);
    if (!design) return undefined;
    const { lines } = design;
    // A refused name throws an InputError: the wrapper answers with its sentence.
    const edits = renameAt(design.analysis, lines.offset(position), name);
    if (!edits) return null;
    return { changes: { [design.uri]: edits.map((e) => ({ range: lines.range(e.start, e.end), newText: e.newText })) } };
  },
});
