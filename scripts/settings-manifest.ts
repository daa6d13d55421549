// `npm run docs:settings`: rewrites package.json's `contributes.configuration`
// from the settings registry (protocol/settings.ts);
// test/unit/protocol/settings.test.ts fails when it is out of date.
import { readFileSync, writeFileSync } from "node:fs";
import { withConfigurationManifest } from "@protocol/settings";

const before = readFileSync("package.json", "utf8");
const after = `${JSON.stringify(withConfigurationManifest(JSON.parse(before)), null, 2)}\n`;
if (after !== before) writeFileSync("package.json", after);
console.log(after === before ? "package.json is current" : "package.json: settings rewritten");
