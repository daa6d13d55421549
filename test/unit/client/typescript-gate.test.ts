/**
 * The client's gate: which TypeScript/JavaScript documents reach the
 * language server. Driven with documents shaped as VS Code hands them over.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { mayUseSdk, SdkProjects, typescriptGate } from "@client/vscode/typescript-gate";

const root = mkdtempSync(path.join(tmpdir(), "tdl-gate-"));
after(() => rmSync(root, { recursive: true, force: true }));

function folder(name: string, pkg: object | undefined): string {
  const dir = path.join(root, name, "src");
  mkdirSync(dir, { recursive: true });
  if (pkg) writeFileSync(path.join(root, name, "package.json"), JSON.stringify(pkg));
  return dir;
}

/** A document as the middleware sees it: uri (scheme, fsPath, toString), languageId and text. */
function doc(file: string, text: string, languageId = "typescript") {
  const uri = { scheme: "file", fsPath: file, toString: () => `file://${file}` };
  return { uri, languageId, getText: () => text } as never;
}

test("mayUseSdk: an import, or a named SDK method; ordinary code neither", () => {
  assert.equal(mayUseSdk(`import { TableClient } from "@azure/data-tables";`), "imports");
  assert.equal(mayUseSdk(`await tables.upsertEntity(e);`), "calls");
  assert.equal(mayUseSdk(`export const sum = (a: number, b: number) => a + b;`), undefined);
});

test("a file that calls the SDK through a helper reaches the server only in a project that depends on the SDK", async () => {
  const app = folder("app", { dependencies: { "@azure/data-tables": "^13" } });
  const other = folder("other", { dependencies: { react: "^19" } });
  const projects = new SdkProjects();
  const gate = typescriptGate(() => true, projects);
  const sent: string[] = [];
  const next = async (d: { uri: { fsPath: string } }) => {
    sent.push(path.relative(root, d.uri.fsPath));
  };
  await gate.didOpen!(doc(path.join(app, "visits.ts"), "await getTableClient('v').upsertEntity(e);"), next as never);
  await gate.didOpen!(doc(path.join(app, "handler.js"), "module.exports = (t) => t.listEntities();", "javascript"), next as never);
  await gate.didOpen!(doc(path.join(app, "math.ts"), "export const one = 1;"), next as never);
  await gate.didOpen!(doc(path.join(other, "orm.ts"), "repo.createEntity(x);"), next as never);
  await gate.didOpen!(doc(path.join(other, "direct.ts"), `import { TableClient } from "@azure/data-tables";`), next as never);
  assert.deepEqual(sent, [
    path.join("app", "src", "visits.ts"),
    path.join("app", "src", "handler.js"),
    path.join("other", "src", "direct.ts"),
  ]);
});

test("a deferred document is sent once an SDK call is typed into it; the setting turns everything off", async () => {
  const app = folder("late", { devDependencies: { "@azure/data-tables": "13.3.2" } });
  let on = true;
  const gate = typescriptGate(() => on, new SdkProjects());
  const sent: string[] = [];
  const next = async (d: { uri: { fsPath: string } }) => {
    sent.push(path.basename(d.uri.fsPath));
  };
  const file = path.join(app, "later.ts");
  await gate.didOpen!(doc(file, "export {}"), next as never);
  assert.deepEqual(sent, []);
  await gate.didChange!(
    { document: doc(file, "client.getEntity(a, b)"), contentChanges: [], reason: undefined } as never,
    (async () => undefined) as never,
  );
  assert.deepEqual(sent, ["later.ts"]);
  on = false;
  await gate.didOpen!(doc(path.join(app, "off.ts"), `import { TableClient } from "@azure/data-tables";`), next as never);
  assert.deepEqual(sent, ["later.ts"]);
});
