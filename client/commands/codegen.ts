/**
 * `tableDesign.generateKeyBuilders` (the "Generate key builders" CodeLens
 * above each table, the command palette, and other features' quick fixes):
 * writes the table's typed key builders to `<table>.keys.ts` next to the
 * design, from the editor's text of the design (unsaved edits included),
 * and opens it. With no arguments it asks for a design table. A design
 * error in the table is shown, with a button that goes to it; nothing is
 * written then.
 */
import * as path from "node:path";
import * as vscode from "vscode";
import { analyzeTdl, LineIndex } from "@core";
import { generateKeyBuilders } from "@codegen";
import { analysisOptions } from "../vscode/settings";
import { workspaceDesigns } from "../vscode/design-files";

/** Where a design's table is: the design's URI (a string, as the CodeLens passes it) and the table's name. */
interface DesignTable {
  uri: vscode.Uri;
  table: string;
}

/**
 * Runs the command. Resolves to the URI (a string) of the module written,
 * or undefined when nothing was (cancelled, or the design has an error).
 */
export async function generateKeyBuildersCommand(uri?: unknown, table?: unknown): Promise<string | undefined> {
  const target = typeof uri === "string" && typeof table === "string" ? { uri: vscode.Uri.parse(uri), table } : await pickTable();
  if (!target) return undefined;
  const doc = await vscode.workspace.openTextDocument(target.uri);
  const text = doc.getText();
  const analysis = analyzeTdl(text, analysisOptions());
  if (!analysis.tables.some((t) => t.table.name.text === target.table)) {
    void vscode.window.showErrorMessage(
      `Generate key builders: ${vscode.workspace.asRelativePath(target.uri)} declares no table '${target.table}'.`,
    );
    return undefined;
  }
  const result = generateKeyBuilders(analysis, { tables: [target.table], source: path.posix.basename(target.uri.path) });
  const module = result.modules[0];
  if (!module) {
    const first = result.problems[0];
    const lines = new LineIndex(text);
    const where = first ? lines.position(first.start) : undefined;
    const more = result.problems.length > 1 ? ` (and ${result.problems.length - 1} more)` : "";
    const message = first ? `line ${where!.line + 1}: ${first.message}${more}` : "no module";
    const choice = await vscode.window.showErrorMessage(
      `Cannot generate key builders for ${target.table}: ${message}`,
      ...(first ? ["Show"] : []),
    );
    if (choice && first) {
      const range = new vscode.Range(doc.positionAt(first.start), doc.positionAt(first.end));
      await vscode.window.showTextDocument(doc, { selection: range });
    }
    return undefined;
  }
  if (target.uri.scheme === "untitled") {
    void vscode.window.showWarningMessage("Save the design first: its key builders are written next to it.");
    return undefined;
  }
  const out = vscode.Uri.joinPath(target.uri, "..", module.fileName);
  await vscode.workspace.fs.writeFile(out, new TextEncoder().encode(module.text));
  await vscode.window.showTextDocument(out, { preview: false, preserveFocus: true });
  void vscode.window.showInformationMessage(
    `Wrote ${vscode.workspace.asRelativePath(out)}: the keys, parsers and query helpers of ${target.table}.`,
  );
  return out.toString();
}

/** A table of an open design or of a design in the workspace, picked by the user. */
async function pickTable(): Promise<DesignTable | undefined> {
  const items: Array<vscode.QuickPickItem & DesignTable> = [];
  for (const { uri, label, text } of await workspaceDesigns()) {
    for (const t of analyzeTdl(text, analysisOptions()).tables) {
      if (t.table.name.text) items.push({ label: t.table.name.text, description: label, uri, table: t.table.name.text });
    }
  }
  if (!items.length) {
    void vscode.window.showWarningMessage("No .tdl design with a table in the workspace: open or create one to generate its key builders.");
    return undefined;
  }
  return vscode.window.showQuickPick(items, { title: "Generate key builders for which table?", matchOnDescription: true });
}
