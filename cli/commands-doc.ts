/**
 * The README's table of `tdl` subcommands, generated from their
 * declarations (`npm run docs:cli`; test/unit/cli/commands-doc.test.ts fails
 * when README.md's table is not the one the registry generates).
 */
import type { Command } from "./command";
import { groupsOf, usageParts } from "./help";

/** Where the table sits in README.md. */
export const BEGIN = "<!-- cli: commands (generated from cli/commands/ by npm run docs:cli) -->";
export const END = "<!-- /cli -->";

const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");
const code = (s: string) => `\`${cell(s)}\``;

/** One row per command and per other form: what must be given, the optional options, what it does, its exit codes. */
export function commandsTable(commands: readonly Command[]): string {
  const lines = ["| command | options | does | exit |", "| --- | --- | --- | --- |"];
  for (const cmd of commands) {
    for (const form of [undefined, ...(cmd.forms ?? [])]) {
      const { head, items } = usageParts(cmd, form);
      const needed = [head, ...items.filter((i) => !i.startsWith("["))].join(" ");
      const optional = items.filter((i) => i.startsWith("[")).map((i) => i.slice(1, -1).split(" ")[0]);
      const groups = groupsOf(cmd).map((g) => g.arg);
      const options = optional.map((o) => (groups.includes(o) ? o.toLowerCase() : code(o))).join(", ");
      const does = form ? form.description : `${cmd.summary}.`;
      lines.push(`| ${code(needed)} | ${options || "—"} | ${cell(does)} | ${cell(cmd.exits)} |`);
    }
  }
  return lines.join("\n");
}

/** README.md with its table of commands replaced by the current one; throws when it has no place for it. */
export function withCurrentCommandTable(markdown: string, commands: readonly Command[]): string {
  const begin = markdown.indexOf(BEGIN);
  const end = begin < 0 ? -1 : markdown.indexOf(END, begin);
  if (begin < 0 || end < 0) throw new Error(`README.md has no place for the table of commands: add ${BEGIN} … ${END}`);
  return `${markdown.slice(0, begin)}${BEGIN}\n${commandsTable(commands)}\n${markdown.slice(end)}`;
}
