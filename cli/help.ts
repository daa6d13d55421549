/**
 * The usage texts of `tdl` and of each subcommand (`tdl <command> --help`,
 * printed on stdout with exit 0), generated from the declarations: the
 * usage line from the positionals, options and their rules, the option list
 * from each option's help and default, the exit codes from `exits`.
 */
import type { Command, Form } from "./command";
import { GROUPS, type Option, type OptionGroup, type Options } from "./options";

/** Width of the help's lines. */
const WIDTH = 100;
/** Where an option's help starts, unless the option is wider. */
const OPTION_COLUMN = 32;

/** `--name ARG`, or `--name` for a flag. */
export function optionUsage(name: string, option: Option<unknown>): string {
  return option.arg === undefined ? `--${name}` : `--${name} ${option.arg}`;
}

/** The groups whose every option the command takes (shown as one `[GROUP]` and listed in a section of their own). */
export function groupsOf(cmd: Command): Array<OptionGroup<Options>> {
  return GROUPS.filter((g) => Object.entries(g.options).every(([name, o]) => cmd.options[name] === o));
}

/**
 * The items of a usage line for `names` in order: a required option bare,
 * one of a few as `(--a | --b VAR)`, all-or-none as `[--a X --b Y]`, a
 * group as `[ANALYSIS OPTIONS]`, any other `[--name ARG]`.
 */
function usageItems(cmd: Command, names: readonly string[], required: ReadonlySet<string>): string[] {
  const items: string[] = [];
  const done = new Set<string>();
  const groups = groupsOf(cmd);
  for (const name of names) {
    if (done.has(name)) continue;
    const group = groups.find((g) => Object.hasOwn(g.options, name));
    const oneOf = cmd.oneOf?.find((g) => g.options.includes(name));
    const together = cmd.together?.find((g) => g.includes(name));
    const members = group ? Object.keys(group.options) : (oneOf?.options ?? together ?? [name]);
    for (const m of members) done.add(m);
    const usages = members.map((m) => optionUsage(m, cmd.options[m]));
    if (group) items.push(`[${group.arg}]`);
    else if (oneOf) items.push(`(${usages.join(" | ")})`);
    else if (together) items.push(`[${usages.join(" ")}]`);
    else items.push(required.has(name) ? usages[0] : `[${usages[0]}]`);
  }
  return items;
}

/** A usage line in parts: `tdl name POSITIONALS` (or `tdl name --selector` of a form), then its items. */
export function usageParts(cmd: Command, form?: Form<string>): { head: string; items: string[] } {
  if (form)
    return {
      head: `tdl ${cmd.name} ${optionUsage(form.selector, cmd.options[form.selector])}${form.positional ? ` ${form.positional}` : ""}`,
      items: usageItems(cmd, form.options, new Set(form.required ?? [])),
    };
  const forms = cmd.forms ?? [];
  const names = Object.keys(cmd.options).filter((n) => !forms.some((f) => f.selector === n || f.own.includes(n)));
  return {
    head: `tdl ${cmd.name}${cmd.positionals ? ` ${cmd.positionals.arg}` : ""}`,
    items: usageItems(cmd, names, new Set(cmd.required ?? [])),
  };
}

/** The usage line of the command's default form, wrapped. */
export function synopsis(cmd: Command): string {
  const { head, items } = usageParts(cmd);
  return wrapItems(head, items);
}

/** The usage line of another form (`tdl stress --cleanup …`), wrapped. */
export function formSynopsis(cmd: Command, form: Form<string>): string {
  const { head, items } = usageParts(cmd, form);
  return wrapItems(head, items);
}

/** `head item item …`, continued lines indented under the first item. */
function wrapItems(head: string, items: readonly string[]): string {
  const indent = " ".repeat(2 + head.length + 1);
  const lines = [`  ${head}`];
  for (const item of items) {
    const last = lines[lines.length - 1];
    if (last.length + 1 + item.length > WIDTH && last.trim() !== head) lines.push(`${indent}${item}`);
    else lines[lines.length - 1] = `${last} ${item}`;
  }
  return lines.join("\n");
}

/** `text` in lines of at most `width` characters, each after `indent`; a newline in `text` starts a new line. */
export function wrap(text: string, indent: string, width = WIDTH): string {
  const out: string[] = [];
  for (const paragraph of text.split("\n")) {
    let line = "";
    for (const word of paragraph.split(/ +/)) {
      if (line && indent.length + line.length + 1 + word.length > width) {
        out.push(indent + line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    out.push(indent + line);
  }
  return out.join("\n");
}

/** One line (or more) per option: its usage, then its help and default. */
function optionLines(options: ReadonlyArray<[string, Option<unknown>]>): string {
  return options
    .map(([name, o]) => {
      const usage = `  ${optionUsage(name, o)}`;
      const help = o.shownDefault !== undefined ? `${o.help} (default ${o.shownDefault})` : o.help;
      const text = wrap(help, " ".repeat(OPTION_COLUMN)).trimStart();
      return usage.length + 2 <= OPTION_COLUMN ? `${usage.padEnd(OPTION_COLUMN)}${text}` : `${usage}\n${" ".repeat(OPTION_COLUMN)}${text}`;
    })
    .join("\n");
}

const ENVIRONMENT = `Environment:
  TDL_DEBUG=1                   print the stack of an internal failure on stderr (for a bug report)`;

/** `tdl <command> --help`. */
export function commandHelp(cmd: Command): string {
  const forms = cmd.forms ?? [];
  const groups = groupsOf(cmd);
  const grouped = new Set(groups.flatMap((g) => Object.keys(g.options)));
  const own = Object.entries(cmd.options).filter(([n]) => !grouped.has(n));
  const sections = [
    `Usage:\n${synopsis(cmd)}\n${wrap(`${cmd.summary}. ${cmd.description}`, "      ")}`,
    ...forms.map((f) => `${formSynopsis(cmd, f)}\n${wrap(f.description, "      ")}`),
    ...(own.length ? [`Options:\n${optionLines(own)}`] : []),
    ...groups.map((g) => `${g.title}:\n${optionLines(Object.entries(g.options))}`),
    `Exit codes:\n${wrap(cmd.exits, "  ")}`,
    ENVIRONMENT,
  ];
  return sections.join("\n\n") + "\n";
}

/** `tdl --help`: every command's usage and summary, then the groups' options. */
export function mainHelp(commands: readonly Command[]): string {
  const usage = commands.flatMap((c) => [
    synopsis(c),
    wrap(`${c.summary}.`, "      "),
    ...(c.forms ?? []).flatMap((f) => [formSynopsis(c, f), wrap(f.description.split(". ")[0].replace(/\.?$/, "."), "      ")]),
  ]);
  const groups = GROUPS.map((g) => {
    const users = commands.filter((c) => groupsOf(c).includes(g)).map((c) => c.name);
    return `${g.title} (${users.join(", ")}):\n${optionLines(Object.entries(g.options))}`;
  });
  return (
    [
      "tdl — Table Design Assistant on the command line",
      `Usage:\n${usage.join("\n")}\n  tdl --help | tdl --version | tdl COMMAND --help`,
      ...groups,
      ENVIRONMENT,
    ].join("\n\n") + "\n"
  );
}
