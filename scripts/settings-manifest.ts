// `npm run docs:settings`: rewrites package.json's `contributes.configuration`
// and the README's list of settings from the settings registry
// (protocol/settings.ts); test/unit/protocol/settings.test.ts fails when
// they are out of date.
import { readFileSync, writeFileSync } from "node:fs";
import { withConfigurationManifest, withReadmeSettings } from "@protocol/settings";

function rewrite(file: string, update: (text: string) => string): void {
  const before = readFileSync(file, "utf8");
  const after = update(before);
  if (after !== before) writeFileSync(file, after);
  console.log(after === before ? `${file} is current` : `${file}: settings rewritten`);
}

rewrite("package.json", (text) => `${JSON.stringify(withConfigurationManifest(JSON.parse(text)), null, 2)}\n`);
rewrite("README.md", withReadmeSettings);
