/**
 * Sends TypeScript and JavaScript documents to the language server only
 * where they may call `@azure/data-tables` (and `tableDesign.typescript.enabled`
 * is on): ordinary editing never reaches our server.
 *
 * Most applications get their TableClient from a helper, so a file that
 * writes entities often does not import the SDK. The gate therefore lets a
 * document through when it imports the SDK, or when it names an SDK method
 * (`createEntity`, `listEntities`…) inside a project whose package.json
 * depends on the SDK. Both checks are cheap: a few substring searches on
 * the text, and one read of each package.json folder, remembered.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { TextDocument, TextDocumentChangeEvent } from "vscode";
import type { Middleware } from "vscode-languageclient/node";

const SDK = "@azure/data-tables";
const LANGUAGES = new Set(["typescript", "typescriptreact", "javascript", "javascriptreact"]);
const METHODS = ["createEntity", "upsertEntity", "updateEntity", "deleteEntity", "getEntity", "listEntities", "submitTransaction"];

/** True when a document's text could call the SDK: it imports it, or it names one of its methods. */
export function mayUseSdk(text: string): "imports" | "calls" | undefined {
  if (text.includes(SDK)) return "imports";
  return METHODS.some((m) => text.includes(m)) ? "calls" : undefined;
}

/**
 * Whether the project a file belongs to depends on the SDK: the nearest
 * package.json that lists it (dependencies of any kind), or a node_modules
 * beside one that holds it. One answer per folder, remembered.
 */
export class SdkProjects {
  private readonly byFolder = new Map<string, boolean>();

  uses(file: string): boolean {
    const seen: string[] = [];
    let dir = path.dirname(file);
    let answer = false;
    for (;;) {
      const known = this.byFolder.get(dir);
      if (known !== undefined) {
        answer = known;
        break;
      }
      seen.push(dir);
      const verdict = folderVerdict(dir);
      if (verdict !== undefined) {
        answer = verdict;
        break;
      }
      const up = path.dirname(dir);
      if (up === dir) break;
      dir = up;
    }
    for (const d of seen) this.byFolder.set(d, answer);
    return answer;
  }

  /** A package.json changed: ask the disk again. */
  forget(): void {
    this.byFolder.clear();
  }
}

/** A folder with a package.json decides: true when it (or its node_modules) has the SDK; undefined when there is none. */
function folderVerdict(dir: string): boolean | undefined {
  let text: string;
  try {
    text = fs.readFileSync(path.join(dir, "package.json"), "utf8");
  } catch {
    return undefined;
  }
  // A workspace's leaf package may lean on its root's dependencies: look further up unless this one names the SDK.
  if (text.includes(`"${SDK}"`) || fs.existsSync(path.join(dir, "node_modules", "@azure", "data-tables"))) return true;
  return undefined;
}

export function typescriptGate(enabled: () => boolean, projects: { uses(file: string): boolean } = new SdkProjects()): Middleware {
  const forwarded = new Set<string>();
  const deferred = new Map<string, (doc: TextDocument) => Promise<void>>();
  const wanted = (doc: TextDocument) => {
    if (!enabled()) return false;
    const use = mayUseSdk(doc.getText());
    return use === "imports" || (use === "calls" && doc.uri.scheme === "file" && projects.uses(doc.uri.fsPath));
  };
  return {
    didOpen: async (doc, next) => {
      if (!LANGUAGES.has(doc.languageId)) return next(doc);
      if (wanted(doc)) {
        forwarded.add(doc.uri.toString());
        return next(doc);
      }
      // Remember how to open it, in case the import or a call is added later.
      deferred.set(doc.uri.toString(), next);
    },
    didChange: async (event: TextDocumentChangeEvent, next) => {
      const uri = event.document.uri.toString();
      if (forwarded.has(uri) || !LANGUAGES.has(event.document.languageId)) return next(event);
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
      if (!LANGUAGES.has(doc.languageId) || forwarded.delete(uri)) return next(doc);
    },
  };
}
