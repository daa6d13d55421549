/**
 * The options a `tdl` subcommand declares: what each looks like in a usage
 * text (`--duration 30s`, `--format text|json|sarif`), its help line, its
 * default, and how its text becomes a value — or a usage error that names
 * the option. The parser (args.ts), the help texts (help.ts) and the README's
 * table (commands-doc.ts) all read these declarations, so an option is
 * declared once.
 */
import { AnalysisOptions, resolveOptions, SERVICE_NAMES } from "@core";
import { UsageError } from "@core/errors";
import { checkOutputFile, checkOutputFolder } from "./destinations";
import { ruleCodes } from "./validate";

/** One option of a subcommand. `V` is the value the handler receives (undefined when absent, unless there is a default). */
export interface Option<V> {
  /** What the value looks like in usage texts (FILE, N, 30s, text|json); absent for a flag, which takes no value. */
  readonly arg?: string;
  readonly help: string;
  /** The default as the help shows it. */
  readonly shownDefault?: string;
  /** Given more than once, the values join with commas (`--rule a=off --rule b=error`). */
  readonly repeatable?: boolean;
  /** The value of the text given (`undefined`: the option is absent; `""` for a flag that is present); throws a UsageError naming `--name`. */
  readonly read: (raw: string | undefined, name: string) => V;
}

/** A subcommand's options by name (without the leading `--`). */
export type Options = Readonly<Record<string, Option<unknown>>>;

/** The values of a set of options, as the handler receives them. */
export type Values<O extends Options> = { readonly [K in keyof O]: ReturnType<O[K]["read"]> };

/** An option that takes a value, with `.default(v)` to make it always have one. */
export interface Valued<T> extends Option<T | undefined> {
  /** The same option with a default: absent, it is `value` (shown in the help as `shown`, or the value itself). */
  default(value: T, shown?: string): Option<T>;
}

/** What a bad value says, unless the declaration words it itself. */
type Invalid = (raw: string, name: string) => string;

interface ValuedSpec<T> {
  arg: string;
  help: string;
  parse: (raw: string, name: string) => T;
  repeatable?: boolean;
}

/** The core of every option that takes a value: absent is undefined (or the default), given is parsed. */
function valued<T>(spec: ValuedSpec<T>): Valued<T> {
  const read = (raw: string | undefined, name: string) => (raw === undefined ? undefined : spec.parse(raw, name));
  return {
    arg: spec.arg,
    help: spec.help,
    repeatable: spec.repeatable,
    read,
    default: (value: T, shown?: string) => ({
      arg: spec.arg,
      help: spec.help,
      repeatable: spec.repeatable,
      shownDefault: shown ?? String(value),
      read: (raw: string | undefined, name: string) => (raw === undefined ? value : spec.parse(raw, name)),
    }),
  };
}

/** A switch: present or not (`--keep-table`). */
export function flag(help: string): Option<boolean> {
  return { help, read: (raw) => raw !== undefined };
}

/** Any text (`--table NAME`); `repeatable` joins repeated values with commas. */
export function text(arg: string, help: string, o: { repeatable?: boolean } = {}): Valued<string> {
  return valued({ arg, help, repeatable: o.repeatable, parse: (raw) => raw });
}

/** One of a few words (`--format text|json`). */
export function choice<const W extends string>(words: readonly W[], help: string, o: { invalid?: Invalid } = {}): Valued<W> {
  const invalid: Invalid = o.invalid ?? ((raw, name) => `--${name} must be ${inWords(words)}, not '${raw.slice(0, 40)}'`);
  return valued({
    arg: words.join("|"),
    help,
    parse: (raw, name) => {
      if (!(words as readonly string[]).includes(raw)) throw new UsageError(invalid(raw, name));
      return raw as W;
    },
  });
}

/** A whole number within bounds (`--concurrency N`). */
export function integer(arg: string, help: string, o: { min?: number; max?: number; invalid?: Invalid } = {}): Valued<number> {
  const { min = -Infinity, max = Infinity } = o;
  const bounds =
    min > -Infinity && max < Infinity
      ? ` from ${min.toLocaleString("en-US")} to ${max.toLocaleString("en-US")}`
      : min > -Infinity
        ? ` ≥ ${min}`
        : "";
  const invalid: Invalid = o.invalid ?? ((_raw, name) => `--${name} needs a whole number${bounds}`);
  return valued({
    arg,
    help,
    parse: (raw, name) => {
      const n = Number(raw);
      if (!Number.isSafeInteger(n) || n < min || n > max) throw new UsageError(invalid(raw, name));
      return n;
    },
  });
}

/** A finite number above 0 (`--scale K`). */
export function positive(arg: string, help: string, o: { invalid?: Invalid } = {}): Valued<number> {
  const invalid: Invalid = o.invalid ?? ((raw, name) => `--${name} needs a positive number, not '${raw.slice(0, 40)}'`);
  return valued({
    arg,
    help,
    parse: (raw, name) => {
      const n = Number(raw);
      if (!Number.isFinite(n) || n <= 0) throw new UsageError(invalid(raw, name));
      return n;
    },
  });
}

/** A duration in milliseconds, written 30s, 2m, 1h, 1d or 500ms (a bare number is seconds); `above0` refuses 0s. */
export function duration(arg: string, help: string, o: { above0?: boolean } = {}): Valued<number> {
  return valued({
    arg,
    help,
    parse: (raw, name) => {
      const ms = parseDuration(raw, `--${name}`);
      if (o.above0 && (!(ms > 0) || !Number.isFinite(ms)))
        throw new UsageError(`--${name} must be longer than 0, not '${raw.slice(0, 40)}'`);
      return ms;
    },
  });
}

/** A value read by the declaration's own function (`--mix read=50,write=50`). */
export function custom<T>(arg: string, help: string, parse: (raw: string, name: string) => T): Valued<T> {
  return valued({ arg, help, parse });
}

/** A file `tdl` writes: checked when the arguments are read, before any work starts (destinations.ts). */
export function outputFile(arg: string, help: string): Valued<string> {
  return valued({ arg, help, parse: (raw, name) => (checkOutputFile(nonEmpty(raw, name, arg)), raw) });
}

/** A folder `tdl` writes into (created when missing): checked when the arguments are read, before any work starts. */
export function outputFolder(arg: string, help: string): Valued<string> {
  return valued({ arg, help, parse: (raw, name) => (checkOutputFolder(nonEmpty(raw, name, arg)), raw) });
}

function nonEmpty(raw: string, name: string, arg: string): string {
  if (raw === "") throw new UsageError(`--${name} needs a ${arg}`);
  return raw;
}

/** `30s` → 30000; a usage error naming `option` otherwise. */
export function parseDuration(raw: string, option = "--duration"): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(raw.trim());
  if (!m) throw new UsageError(`${option} must look like 30s, 2m, 1h or 500ms, not '${raw.slice(0, 40)}'`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[(m[2] ?? "s") as "ms" | "s" | "m" | "h" | "d"];
  return Number(m[1]) * unit;
}

/** `a, b or c` (or `a, b and c`). */
export function inWords(words: readonly string[], last: "or" | "and" = "or"): string {
  return words.length < 2 ? words.join("") : `${words.slice(0, -1).join(", ")} ${last} ${words[words.length - 1]}`;
}

/**
 * Options that travel together and have a section of their own in the help
 * (`[ANALYSIS OPTIONS]` in a usage line): a command spreads `group.options`
 * into its own, and the help recognises them.
 */
export interface OptionGroup<O extends Options> {
  /** How a usage line names the whole group. */
  readonly arg: string;
  /** The heading of its section in the help. */
  readonly title: string;
  readonly options: O;
}

/** The analysis options: one meaning in every analysing subcommand, checked by the core's `resolveOptions()`. */
export const ANALYSIS: OptionGroup<{
  service: Valued<string>;
  "partition-target": Valued<string>;
  rule: Valued<string>;
}> = {
  arg: "ANALYSIS OPTIONS",
  title: "Analysis options",
  options: {
    service: text("NAME", `the profile of designs without a 'service' line: ${SERVICE_NAMES.join(", ")} (default ${SERVICE_NAMES[0]})`),
    "partition-target": text("N", "per-partition target in entities/s (default: the profile's)"),
    rule: text(
      "CODE=LEVEL",
      "a rule's level: off, hint, info, warning or error (repeatable, or comma-separated: --rule query/class=off,key/too-long=warning)",
      { repeatable: true },
    ),
  },
};

/**
 * The analysis options as the core takes them; a value the core refuses is a
 * usage error naming the option, and a rule code `tdl` does not report is
 * named with the closest one it does (validate.ts).
 */
export function analysisOf(values: {
  service?: string;
  "partition-target"?: string;
  rule?: string;
  "test-files"?: boolean;
}): AnalysisOptions {
  const { options, problems } = resolveOptions(
    {
      service: values.service,
      partitionTargetEntitiesPerSecond: values["partition-target"],
      rules: values.rule,
      testFiles: values["test-files"] || undefined,
    },
    { service: "--service", target: "--partition-target", rules: "--rule", testFiles: "--test-files" },
  );
  if (problems.length) throw new UsageError(problems.join("; "));
  ruleCodes(values.rule);
  return options;
}

/** Every group the help recognises (a connection group for bulk jobs would join here). */
export const GROUPS: ReadonlyArray<OptionGroup<Options>> = [ANALYSIS];
