/**
 * The workspace's design files, read without trusting them: the pickers of
 * the stress and codegen commands list every `.tdl` of the workspace, and a
 * FIFO named `x.tdl` or a link to `/dev/zero` must not hang or fill the
 * extension host. Only regular files of at most `MAX_DESIGN_FILE_BYTES`
 * are read (the language server's scan reads by the same rule); an open
 * editor's text wins over the file, so unsaved edits count.
 */
import * as vscode from "vscode";

/** Bytes of one design file a picker reads (the language server's scan reads as much). */
export const MAX_DESIGN_FILE_BYTES = 1024 * 1024;

/** Designs a picker looks at, at most. */
const MAX_FILES = 2000;

/** A design of the workspace: its URI, its path as the workspace names it, and its text. */
export interface DesignFile {
  uri: vscode.Uri;
  label: string;
  text: string;
}

/** The text of a design file, or undefined when it is not a regular file of a readable size (or cannot be read). */
export async function readDesignFile(uri: vscode.Uri): Promise<string | undefined> {
  try {
    const stat = await vscode.workspace.fs.stat(uri);
    // A link's type is the target's with SymbolicLink added: a link to a device or a FIFO has no File bit.
    if (!(stat.type & vscode.FileType.File) || stat.size > MAX_DESIGN_FILE_BYTES) return undefined;
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}

/** Every readable design of the workspace and every open one, the open editors' text first. */
export async function workspaceDesigns(): Promise<DesignFile[]> {
  const open = new Map(
    vscode.workspace.textDocuments.filter((d) => d.languageId === "tdl" || d.fileName.endsWith(".tdl")).map((d) => [d.uri.toString(), d]),
  );
  const found = await vscode.workspace.findFiles("**/*.tdl", "**/node_modules/**", MAX_FILES);
  const uris = new Map([
    ...found.map((u) => [u.toString(), u] as const),
    ...[...open.values()].map((d) => [d.uri.toString(), d.uri] as const),
  ]);
  const files = await Promise.all(
    [...uris.values()].map(async (uri) => {
      const text = open.get(uri.toString())?.getText() ?? (await readDesignFile(uri));
      return text === undefined ? undefined : { uri, label: vscode.workspace.asRelativePath(uri), text };
    }),
  );
  return files.filter((f) => f !== undefined);
}
