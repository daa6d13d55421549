// `npm run docs:commands`: rewrites package.json's commands, command-palette
// menu and onCommand/onWebviewPanel activation events, and the README's list
// of commands, from the one list of commands (protocol/commands.ts) and the
// page registry (protocol/pages.ts); test/unit/client/commands.test.ts
// fails when they are out of date. Also the language model tools, from the
// agent tools' registry (agent-tools/contribution.ts).
import { readFileSync, writeFileSync } from "node:fs";
import { withCommandManifest, withReadmeCommands } from "@client/commands/manifest";
import { withLanguageModelTools } from "@agent-tools/contribution";

function rewrite(file: string, update: (text: string) => string): void {
  const before = readFileSync(file, "utf8");
  const after = update(before);
  if (after !== before) writeFileSync(file, after);
  console.log(after === before ? `${file} is current` : `${file}: commands rewritten`);
}

rewrite("package.json", (text) => `${JSON.stringify(withLanguageModelTools(withCommandManifest(JSON.parse(text))), null, 2)}\n`);
rewrite("README.md", withReadmeCommands);
