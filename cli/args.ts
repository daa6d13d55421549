/**
 * A small argument parser: `--name value`, `--name=value`, boolean flags and
 * positionals, with errors that name the offending option. `-x` is an
 * option too (there are no short options, so it is an unknown one); `-`,
 * `-5` and anything after `--` are positionals.
 */
import { AnalysisOptions, clip, resolveOptions } from "@core";
import { UsageError } from "@core/errors";

export { UsageError } from "@core/errors";

/** The options every analysing subcommand takes (check, classify, fix, stress): one meaning everywhere. */
export const ANALYSIS_OPTIONS = ["service", "partition-target", "rule"] as const;

/** Options that may be given more than once; their values join with commas (`--rule a=off --rule b=error`). */
const REPEATABLE = new Set(["rule"]);

/** `--service` and `--partition-target` as analysis options, checked by the core's `resolveOptions()`. */
export function analysisOptions(options: ParsedArgs["options"]): AnalysisOptions {
  const { options: resolved, problems } = resolveOptions(
    {
      service: options.get("service"),
      partitionTargetEntitiesPerSecond: options.get("partition-target"),
      rules: options.get("rule"),
      testFiles: options.get("test-files"),
    },
    { service: "--service", target: "--partition-target", rules: "--rule", testFiles: "--test-files" },
  );
  if (problems.length) throw new UsageError(problems.join("; "));
  return resolved;
}

export interface ParsedArgs {
  positionals: string[];
  options: Map<string, string | true>;
}

export function parseArgs(argv: string[], valued: readonly string[], flags: readonly string[]): ParsedArgs {
  const positionals: string[] = [];
  const options = new Map<string, string | true>();
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
    if (flags.includes(name)) {
      if (eq >= 0) throw new UsageError(`--${name} takes no value`);
      options.set(name, true);
    } else if (valued.includes(name)) {
      const value = eq >= 0 ? a.slice(eq + 1) : argv[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      const before = options.get(name);
      options.set(name, REPEATABLE.has(name) && typeof before === "string" ? `${before},${value}` : value);
    } else {
      throw new UsageError(`unknown option --${shown(name)}`);
    }
  }
  return { positionals, options };
}

/** An argument as echoed in a message: bounded, so a pasted megabyte does not come back. */
export function shown(a: string): string {
  return clip(a, 60);
}
