/**
 * Document sync that refuses what the protocol does not allow instead of
 * corrupting the server's copy: `didOpen` without text, `didChange` with a
 * range whose numbers are missing or negative, or a change without text.
 * The library would otherwise compute NaN offsets and silently cut the
 * document; here the change is refused as a whole (logged by the guard of
 * the notification) and the document keeps its last good text.
 */
import { TextDocumentContentChangeEvent, TextDocumentsConfiguration } from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { InvalidParams } from "./guard";
import { checkPosition, isObject } from "./params";

function checkChange(change: unknown, i: number): TextDocumentContentChangeEvent {
  if (!isObject(change) || typeof change.text !== "string") throw new InvalidParams(`contentChanges[${i}].text must be a string`);
  if (change.range === undefined) return { text: change.text };
  if (!isObject(change.range)) throw new InvalidParams(`contentChanges[${i}].range must be a range`);
  const start = checkPosition(change.range.start, `contentChanges[${i}].range.start`);
  const end = checkPosition(change.range.end, `contentChanges[${i}].range.end`);
  return { range: { start, end }, text: change.text };
}

/** `TextDocuments` configuration with checked creation and updates. */
export const CHECKED_SYNC: TextDocumentsConfiguration<TextDocument> = {
  create(uri, languageId, version, content) {
    if (typeof uri !== "string") throw new InvalidParams("didOpen: textDocument.uri must be a string");
    if (typeof content !== "string") throw new InvalidParams(`didOpen ${uri}: textDocument.text must be a string`);
    return TextDocument.create(uri, typeof languageId === "string" ? languageId : "", Number.isInteger(version) ? version : 0, content);
  },
  update(document, changes, version) {
    if (!Array.isArray(changes)) throw new InvalidParams(`didChange ${document.uri}: contentChanges must be an array`);
    const checked = changes.map(checkChange);
    return TextDocument.update(document, checked, Number.isInteger(version) ? version : document.version + 1);
  },
};
