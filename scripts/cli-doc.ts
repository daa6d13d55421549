// `npm run docs:cli`: rewrites README.md's table of `tdl` subcommands from
// their declarations (cli/commands/); test/unit/cli/registry.test.ts
// fails when it is out of date.
import { readFileSync, writeFileSync } from "node:fs";
import { COMMANDS } from "@cli/commands";
import { withCurrentCommandTable } from "@cli/commands-doc";

const file = "README.md";
const before = readFileSync(file, "utf8");
const after = withCurrentCommandTable(before, COMMANDS);
if (after !== before) writeFileSync(file, after);
console.log(after === before ? "README.md's table of commands is current" : "README.md: table of commands rewritten");
