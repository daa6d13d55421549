/**
 * Reads a subcommand's arguments against its declaration (command.ts):
 * `--name value`, `--name=value`, flags and positionals, then the rules
 * between them (how many positionals, required options, one of a few, all
 * or none, the forms), then each option's value. Every error names the
 * offending argument. `-x` is an option too (there are no short options, so
 * it is an unknown one); `-`, `-5` and anything after `--` are positionals.
 */
import { clip } from "@core";
import { UsageError } from "@core/errors";
import type { Args, Command, Form } from "./command";
import { inWords, type Options } from "./options";
import { formSynopsis, optionUsage } from "./help";

/** The arguments after the command name, read against its declaration; throws a UsageError naming what is wrong. */
export function parseCommand(cmd: Command, argv: readonly string[]): Args<Options> {
  const { positionals, raw } = tokens(cmd, argv);
  const form = checkForm(cmd, raw);
  checkPositionals(cmd, positionals, form);
  checkRules(cmd, raw);
  const options: Record<string, unknown> = {};
  for (const [name, option] of Object.entries(cmd.options)) options[name] = option.read(raw.get(name), name);
  return { positionals, options, given: raw };
}

/** Splits the arguments into positionals and the raw text of each option given (`""` for a flag). */
function tokens(cmd: Command, argv: readonly string[]): { positionals: string[]; raw: Map<string, string> } {
  const positionals: string[] = [];
  const raw = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (/^-[A-Za-z]/.test(a)) throw new UsageError(`unknown option ${shown(a)} (an argument that starts with '-' goes after --)`);
    if (!a.startsWith("--")) {
      positionals.push(a);
      continue;
    }
    const eq = a.indexOf("=");
    const name = a.slice(2, eq < 0 ? undefined : eq);
    if (!Object.hasOwn(cmd.options, name)) throw new UsageError(`unknown option --${shown(name)}`);
    const option = cmd.options[name];
    if (option.arg === undefined) {
      if (eq >= 0) throw new UsageError(`--${name} takes no value`);
      raw.set(name, "");
      continue;
    }
    const value = eq >= 0 ? a.slice(eq + 1) : argv[++i];
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    const before = raw.get(name);
    raw.set(name, option.repeatable && before !== undefined ? `${before},${value}` : value);
  }
  return { positionals, raw };
}

function checkPositionals(cmd: Command, positionals: readonly string[], form: Form<string> | undefined): void {
  if (form?.positional) {
    if (positionals.length !== 1) throw new UsageError(`--${form.selector} needs one ${form.positional}`);
    return;
  }
  const p = cmd.positionals;
  if (!p) {
    if (positionals.length) throw new UsageError(`${cmd.name} takes no positional arguments (got '${shown(positionals[0], 40)}')`);
    return;
  }
  if (p.count === "one" ? positionals.length !== 1 : positionals.length === 0)
    throw new UsageError(p.missing ?? `${cmd.name} needs ${p.count === "one" ? "one" : "at least one"} ${p.arg.replace(/\.\.\.$/, "")}`);
}

/** A form's selector admits only that form's options; without it, no form's own option is admitted. Returns the form chosen. */
function checkForm(cmd: Command, given: ReadonlyMap<string, string>): Form<string> | undefined {
  const forms = cmd.forms ?? [];
  const chosen = forms.filter((f) => given.has(f.selector));
  if (chosen.length > 1)
    throw new UsageError(
      `${inWords(
        chosen.map((f) => `--${f.selector}`),
        "and",
      )} go separately`,
    );
  const form: Form<string> | undefined = chosen[0];
  for (const name of given.keys()) {
    if (form && name !== form.selector && !form.options.includes(name))
      throw new UsageError(`--${form.selector} does not take --${name}: ${formSynopsis(cmd, form).replace(/\s+/g, " ").trim()}`);
    const owner = forms.find((f) => f !== form && f.own.includes(name));
    if (!form && owner) throw new UsageError(`--${name} goes with --${owner.selector}`);
  }
  const missing = form?.required?.filter((o) => !given.get(o)) ?? [];
  if (form && missing.length)
    throw new UsageError(`--${form.selector} needs ${missing.map((o) => optionUsage(o, cmd.options[o])).join(" and ")}`);
  return form;
}

/** One of a few, required options and all-or-none groups, as the declaration says. */
function checkRules(cmd: Command, given: ReadonlyMap<string, string>): void {
  const form = (cmd.forms ?? []).find((f) => given.has(f.selector));
  for (const group of cmd.oneOf ?? []) {
    // A form that takes none of the group's options (`tdl stress --ingest DIR`) is not asked for one.
    if (form && !group.options.some((o) => form.options.includes(o))) continue;
    if (group.options.filter((o) => given.has(o)).length !== 1)
      throw new UsageError(`choose one ${group.what}: ${inWords(group.options.map((o) => optionUsage(o, cmd.options[o])))}`);
  }
  const inForm = (cmd.forms ?? []).some((f) => given.has(f.selector));
  const required = cmd.required ?? [];
  if (!inForm && required.some((o) => !given.get(o))) {
    const others = (cmd.forms ?? []).map((f) => `--${f.selector}`);
    const what = required.map((o) => optionUsage(o, cmd.options[o])).join(" and ");
    throw new UsageError(`${cmd.name} needs ${what}${others.length ? ` (or ${inWords(others)})` : ""}`);
  }
  for (const group of cmd.together ?? []) {
    const some = group.filter((o) => given.has(o)).length;
    if (some && some < group.length)
      throw new UsageError(
        `${inWords(
          group.map((o) => `--${o}`),
          "and",
        )} go together`,
      );
  }
}

/** An argument as echoed in a message: bounded, so a pasted megabyte does not come back. */
export function shown(a: string, max = 60): string {
  return clip(a, max);
}

/** Whether the arguments ask for help (`--help` or `-h` before any `--`). */
export function asksForHelp(argv: readonly string[]): boolean {
  for (const a of argv) {
    if (a === "--") return false;
    if (a === "--help" || a === "-h") return true;
  }
  return false;
}
