// `npm run docs:rules`: rewrites the rule tables of docs/rules.md from the
// rule records (cli/catalog.ts); test/unit/catalog.test.ts
// fails when they are out of date.
import { readFileSync, writeFileSync } from "node:fs";
import { withCurrentTables } from "@cli/catalog";

const file = "docs/rules.md";
const before = readFileSync(file, "utf8");
const after = withCurrentTables(before);
if (after !== before) writeFileSync(file, after);
console.log(after === before ? "docs/rules.md is current" : "docs/rules.md: rule tables rewritten");
