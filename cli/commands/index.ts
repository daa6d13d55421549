/**
 * The registry of `tdl`'s subcommands: one entry each, in the order
 * `tdl --help` and the README's table list them. A new subcommand is its
 * module in this folder (its declaration and handler, command.ts), its line
 * here, and its test in test/cli/; then `npm run docs:cli`.
 */
import type { Command } from "../command";
import { check } from "./check";
import { classify } from "./classify";
import { fix } from "./fix";
import { stress } from "./stress";
import { emulator } from "./emulator";
import { infer } from "./infer";
import { codegen } from "./codegen";
import { exportCommand } from "./export";
import { importCommand } from "./import";
import { copy } from "./copy";
import { deleteCommand } from "./delete";
import { cost } from "./cost";
import { heatmap } from "./heatmap";
import { mcp } from "./mcp";
import { migrate } from "./migrate";

export const COMMANDS: readonly Command[] = [
  check,
  classify,
  fix,
  stress,
  emulator,
  infer,
  codegen,
  cost,
  heatmap,
  exportCommand,
  importCommand,
  copy,
  deleteCommand,
  migrate,
  mcp,
];

/** The subcommand named `name`, if there is one (never one of Object's own properties). */
export function commandNamed(name: string): Command | undefined {
  return COMMANDS.find((c) => c.name === name);
}
