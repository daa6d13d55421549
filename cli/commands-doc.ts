/**
 * The README's table of `tdl` subcommands, generated from their
 * declarations (`npm run docs:cli`; test/unit/cli/registry.test.ts fails
 * when README.md's table is not the one the registry generates).
 */
import type { Command } from "./command";
import { groupsOf, optionUsage, usageParts } from "./help";
import { GROUPS, inWords } from "./options";

/** Where the table sits in README.md. */
export const BEGIN = "<!-- cli: commands (generated from cli/commands/ by npm run docs:cli) -->";
export const END = "<!-- /cli -->";

/** Text in a table cell: pipes escaped, `<table>` not read as HTML. */
const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/</g, "&lt;").replace(/\n/g, " ");
/** Code in a table cell (a code span keeps `<` as it is). */
const code = (s: string) => `\`${s.replace(/\|/g, "\\|")}\``;

/**
 * One row per command and per other form: what must be given, the optional
 * options, what it does, its exit codes; then each group of options.
 */
export function commandsTable(commands: readonly Command[]): string {
  const lines = ["| command | options | does | exit |", "| --- | --- | --- | --- |"];
  for (const cmd of commands) {
    for (const form of [undefined, ...(cmd.forms ?? [])]) {
      const { head, items } = usageParts(cmd, form);
      const needed = [head, ...items.filter((i) => !i.startsWith("["))].join(" ");
      const groups = new Map(groupsOf(cmd).map((g) => [`[${g.arg}]`, g.title.toLowerCase()]));
      // The optional ones by name (`[--design FILE --table NAME]` is both), a group by its title.
      const options = items
        .filter((i) => i.startsWith("["))
        .flatMap((i) => groups.get(i) ?? (i.match(/--[a-z][a-z0-9-]*/g) ?? []).map(code))
        .join(", ");
      const does = form ? form.description : `${cmd.summary}.`;
      lines.push(`| ${code(needed)} | ${options || "—"} | ${cell(does)} | ${cell(cmd.exits)} |`);
    }
  }
  // Each group once, under the table: what its options mean to every command that takes them.
  for (const g of GROUPS) {
    const users = commands.filter((c) => groupsOf(c).includes(g)).map((c) => `\`${c.name}\``);
    const options = Object.entries(g.options).map(([name, o]) => `${code(optionUsage(name, o))} ${cell(o.help)}`);
    lines.push("", `${g.title} (${inWords(users, "and")}): ${options.join("; ")}.`);
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
