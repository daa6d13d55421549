/**
 * Sends TypeScript documents to the language server only where they import
 * `@azure/data-tables` (or where `tableDesign.typescript.enabled` asks for
 * none at all): ordinary TypeScript editing never reaches our server.
 */
import type { TextDocument, TextDocumentChangeEvent } from "vscode";
import type { Middleware } from "vscode-languageclient/node";

const SDK = "@azure/data-tables";
const TS_LANGUAGES = new Set(["typescript", "typescriptreact"]);

export function typescriptGate(enabled: () => boolean): Middleware {
  const forwarded = new Set<string>();
  const deferred = new Map<string, (doc: TextDocument) => Promise<void>>();
  const wanted = (doc: TextDocument) => enabled() && doc.getText().includes(SDK);
  return {
    didOpen: async (doc, next) => {
      if (!TS_LANGUAGES.has(doc.languageId)) return next(doc);
      if (wanted(doc)) {
        forwarded.add(doc.uri.toString());
        return next(doc);
      }
      // Remember how to open it, in case the import is added later.
      deferred.set(doc.uri.toString(), next);
    },
    didChange: async (event: TextDocumentChangeEvent, next) => {
      const uri = event.document.uri.toString();
      if (forwarded.has(uri) || !TS_LANGUAGES.has(event.document.languageId)) return next(event);
      const open = deferred.get(uri);
      if (open && wanted(event.document)) {
        deferred.delete(uri);
        forwarded.add(uri);
        await open(event.document);
      }
    },
    didClose: async (doc, next) => {
      const uri = doc.uri.toString();
      deferred.delete(uri);
      if (!TS_LANGUAGES.has(doc.languageId) || forwarded.delete(uri)) return next(doc);
    },
  };
}
