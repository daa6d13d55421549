/**
 * The README's *Developing* section against the registries it describes:
 * every path it names exists (a placeholder such as `<view>` matches at
 * least one file), each kind of thing it says how to add names its
 * registry, and the language server's registry of features holds exactly
 * the providers in server/features/, each once. (The commands' registry is
 * checked against the README's list in test/unit/client/commands.test.ts,
 * the pages' against their folders in test/unit/client/pages.test.ts.)
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { FEATURES } from "@server/features";

const readme = readFileSync("README.md", "utf8");
const developing = readme.slice(readme.indexOf("## Developing"), readme.indexOf("\n## ", readme.indexOf("## Developing") + 1));

/** `a/b/<x>.ts` → the files it can mean (a placeholder is one path segment, or part of one). */
function matches(pattern: string): boolean {
  if (!pattern.includes("<")) return existsSync(pattern.replace(/\/$/, ""));
  const re = new RegExp(`^${pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/<[a-z]+>/g, "[^/]+")}$`);
  const root = pattern.slice(0, pattern.indexOf("<")).replace(/[^/]*$/, "") || ".";
  if (!existsSync(root)) return false;
  return readdirSync(root, { recursive: true, encoding: "utf8" }).some((f) => re.test(path.posix.join(root, f.split(path.sep).join("/"))));
}

test("every repository path the Developing section names exists", () => {
  const named = [...developing.matchAll(/`([\w.-]+(?:\/[\w.<>-]+)+\/?)`/g)].map((m) => m[1]);
  assert.ok(named.length >= 15, `paths named: ${named.join(", ")}`);
  assert.deepEqual(
    named.filter((p) => !matches(p)),
    [],
  );
});

test("each kind of thing names its registry and the files it takes", () => {
  const bullet = (title: string) => {
    const start = developing.indexOf(`- **${title}**`);
    assert.ok(start >= 0, `a bullet '${title}'`);
    const end = developing.indexOf("\n- **", start + 1);
    return developing.slice(start, end < 0 ? undefined : end);
  };
  const page = bullet("A page");
  for (const p of ["protocol/pages.ts", "webview/<view>/page.ts", "client/pages/<view>.ts", "PAGES"]) assert.ok(page.includes(p), p);
  const command = bullet("A command");
  for (const p of ["protocol/commands.ts", "client/extension.ts", "npm run docs:commands", "COMMANDS"]) assert.ok(command.includes(p), p);
  const lsp = bullet("An LSP feature");
  for (const p of ["server/features/<name>.ts", "server/features/index.ts", "test/helpers/ide.ts", "REQUEST_BUDGET"])
    assert.ok(lsp.includes(p), p);
});

test("the server's features are the providers of server/features/, one line each, one method each", async () => {
  const modules = readdirSync("server/features").filter((f) => f.endsWith(".ts") && f !== "index.ts");
  const provided: unknown[] = [];
  for (const f of modules) {
    const exported = Object.values(await import(`../../server/features/${f}`)).filter((v) => typeof v === "object" && v && "method" in v);
    assert.ok(exported.length >= 1, `${f} exports a provider`);
    provided.push(...exported);
  }
  assert.equal(FEATURES.length, provided.length, "every provider is wired");
  for (const p of provided) assert.ok((FEATURES as readonly unknown[]).includes(p), (p as { name: string }).name);
  const methods = FEATURES.map((f) => f.method);
  assert.equal(new Set(methods).size, methods.length, "one provider per method");
  // Wired in one line each: the registry's list holds one provider per line.
  const index = readFileSync("server/features/index.ts", "utf8");
  const list = index.slice(index.indexOf("FEATURES = ["), index.indexOf("] as const"));
  const lines = list
    .split("\n")
    .slice(1)
    .filter((l) => l.trim());
  assert.equal(lines.length, FEATURES.length);
  assert.ok(
    lines.every((l) => /^\s+\w+,$/.test(l)),
    lines.join("\n"),
  );
});
