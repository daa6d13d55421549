/**
 * One typed list of commands (protocol/commands.ts) is the only place a
 * command id is written: package.json's commands, palette menu and
 * activation events and the README's list are generated from it (`npm run
 * docs:commands`) and checked here both ways; every command of the list is
 * registered, through the one wrapper; no other file spells an id or
 * registers or runs a command behind the wrapper's back.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { COMMANDS, type CommandName } from "@protocol/commands";
import { PAGES, VIEW_NAMES } from "@protocol/pages";
import { commandManifest, readmeCommandSentence, withCommandManifest, withReadmeCommands } from "@client/commands/manifest";

const pkg = JSON.parse(readFileSync("package.json", "utf8")) as {
  activationEvents: string[];
  contributes: { commands: Array<{ command: string; title: string }>; menus: { commandPalette: Array<{ command: string; when: string }> } };
};
const ids = Object.values(COMMANDS).map((c) => c.id);

test("package.json's commands, palette menu and activation events are the list's, both ways (npm run docs:commands)", () => {
  const declared = pkg.contributes.commands.map((c) => c.command);
  assert.deepEqual(
    declared.filter((id) => !ids.includes(id as never)),
    [],
    "package.json declares commands the list does not have",
  );
  assert.deepEqual(
    ids.filter((id) => !declared.includes(id)),
    [],
    "the list has commands package.json does not declare",
  );
  const m = commandManifest();
  assert.deepEqual(pkg.contributes.commands, m.commands, "titles, categories and icons");
  assert.deepEqual(pkg.contributes.menus.commandPalette, m.commandPalette, "commands hidden from the palette");
  const generated = pkg.activationEvents.filter((e) => /^on(Command|WebviewPanel):/.test(e));
  assert.deepEqual(generated, m.activationEvents, "onCommand and onWebviewPanel events");
  assert.deepEqual(withCommandManifest(pkg), pkg, "run npm run docs:commands");
  // The generated events name only commands and panels that exist.
  for (const e of generated) {
    const [, name] = e.split(":");
    assert.ok(ids.includes(name as never) || VIEW_NAMES.some((v) => PAGES[v].panel === name), e);
  }
});

test("the README lists the palette's commands as the list has them (npm run docs:commands)", () => {
  const readme = readFileSync("README.md", "utf8");
  assert.equal(withReadmeCommands(readme), readme, "run npm run docs:commands");
  assert.ok(readme.includes(readmeCommandSentence()));
  for (const c of Object.values(COMMANDS)) {
    const hidden = (c as { palette?: false }).palette === false;
    assert.equal(readmeCommandSentence().includes(c.title), !hidden, c.title);
  }
});

/** Every TypeScript source file of the layers that ship. */
function sources(): string[] {
  return ["core", "protocol", "codegen", "ts-analysis", "runtime", "server", "cli", "client", "webview"].flatMap((dir) =>
    readdirSync(dir, { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".ts"))
      .map((f) => path.join(dir, f)),
  );
}

test("no file but the list spells a command id, and only the wrapper registers or runs commands", () => {
  const spelled: string[] = [];
  const bypass: string[] = [];
  for (const file of sources()) {
    const text = readFileSync(file, "utf8");
    if (!file.startsWith("protocol/"))
      for (const id of ids) if (text.includes(`"${id}"`) || text.includes(`'${id}'`)) spelled.push(`${file}: ${id}`);
    if (file !== path.join("client", "vscode", "commands.ts") && /commands\.(registerCommand|executeCommand)\(/.test(text))
      bypass.push(file);
  }
  assert.deepEqual(spelled, []);
  assert.deepEqual(bypass, []);
});

test("every command of the list is registered once: the extension's by name, each page's by the page registry", () => {
  const extension = readFileSync("client/extension.ts", "utf8");
  const registered = [...extension.matchAll(/commands\.register\("(\w+)"/g)].map((m) => m[1]);
  const pages = VIEW_NAMES.flatMap((v) => {
    const command = (PAGES[v] as { command?: { name: string } }).command;
    return command ? [command.name] : [];
  });
  const all = [...registered, ...pages].sort();
  assert.deepEqual(all, (Object.keys(COMMANDS) as CommandName[]).sort());
  assert.equal(new Set(all).size, all.length, "registered twice");
});
