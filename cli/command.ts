/**
 * A `tdl` subcommand, declared once: its name, what it does, its positional
 * arguments and options (options.ts), the rules between them, its exit codes
 * and its handler. The parser (args.ts), `tdl --help` and `tdl X --help`
 * (help.ts) and the README's table (commands-doc.ts) are generated from the
 * declarations listed in cli/commands/index.ts.
 */
import type { CliResult, Io } from "./output";
import type { Options, Values } from "./options";

/** The positional arguments: exactly one, or one or more. */
export interface Positionals {
  /** How a usage line shows them: PATH..., "FILTER", DESIGN.tdl. */
  readonly arg: string;
  readonly count: "one" | "some";
  /** What a wrong count says, when `<command> needs one ARG` is not enough. */
  readonly missing?: string;
}

/** Options of which exactly one is given (`--emulator | --connection-string-env VAR`). */
export interface OneOf<K extends string> {
  readonly options: readonly K[];
  /** What they choose, in the message of a wrong count: `choose one target: …`. */
  readonly what: string;
}

/**
 * Another form of the command, selected by one of its options
 * (`tdl stress --cleanup …`): it takes only `options`, and `own` are
 * refused without it.
 */
export interface Form<K extends string> {
  readonly selector: K;
  readonly options: readonly K[];
  readonly own: readonly K[];
  /** Options this form needs (beyond its selector). */
  readonly required?: readonly K[];
  /** The one positional argument this form takes (`DIR` of `tdl stress --export locust DIR`); without it, none. */
  readonly positional?: string;
  /** What this form does, for the help. */
  readonly description: string;
}

/** What a handler receives: the positionals, every option's value, and the text of each option given (`""` for a flag). */
export interface Args<O extends Options> {
  readonly positionals: readonly string[];
  readonly options: Values<O>;
  readonly given: ReadonlyMap<string, string>;
}

export interface CommandSpec<O extends Options> {
  /** `tdl <name>`. */
  readonly name: string;
  /** One line: what it does (the README's table, `tdl --help`). */
  readonly summary: string;
  /** What `tdl <name> --help` says of it beyond the summary. */
  readonly description: string;
  /** The exit codes, in words: `0 done; 1 …; 2 bad usage`. */
  readonly exits: string;
  readonly positionals?: Positionals;
  readonly options: O;
  /** Options that must be given (in the default form). */
  readonly required?: ReadonlyArray<keyof O & string>;
  readonly oneOf?: ReadonlyArray<OneOf<keyof O & string>>;
  /** Options given all or none (`--design FILE --table NAME`). */
  readonly together?: ReadonlyArray<ReadonlyArray<keyof O & string>>;
  readonly forms?: ReadonlyArray<Form<keyof O & string>>;
  /** Runs the command; `io` is for what it writes as it goes (the result is written at the end). A throw is mapped by failure.ts. */
  readonly run: (args: Args<O>, io: Io) => CliResult | Promise<CliResult>;
}

/** A declaration as the registry holds it, whatever its options. */
export type Command = CommandSpec<Options>;

/** Declares a subcommand, its handler typed by its options. */
export function command<O extends Options>(spec: CommandSpec<O>): Command {
  return spec as unknown as Command;
}
