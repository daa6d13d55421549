/**
 * Usage texts of `tdl` and of each subcommand (`tdl <command> --help`),
 * printed on stdout with exit 0.
 */
import { SERVICE_NAMES } from "@core";

const CHECK = `  tdl check PATH... [--format text|json|sarif] [--max-warnings N] [--test-files] [--design-drift] [ANALYSIS OPTIONS]
      Analyse .tdl designs and TypeScript/JavaScript files (a folder: every one below it,
      honouring .gitignore). Exit 0 when clean or only warnings/info, 1 on any
      error (or more warnings than --max-warnings), 2 on bad usage or an
      unreadable path, 3 when a file could not be analysed (an internal
      failure, reported as an 'internal' diagnostic of that file; the other
      files are still reported).`;

const CLASSIFY = `  tdl classify "FILTER" [--design FILE --table NAME] [--format text|json] [ANALYSIS OPTIONS]
      Classify one OData filter as point, row-range, partition-range or
      table-scan, with estimates from a design's table. Exit 2 if it does
      not parse (with the position), 3 on an internal failure. A filter that
      starts with '-' goes after --; FILTER '-' reads the filter from stdin.`;

const FIX = `  tdl fix PATH... [ANALYSIS OPTIONS]
      Apply every quick fix that is the only fix of its diagnostic; print a
      summary. Exit 0; 2 when a path cannot be read or written; 3 when a file
      could not be fixed (it is left unchanged; the others are fixed).`;

const STRESS = `  tdl stress --design FILE --table NAME (--emulator | --connection-string-env VAR)
             [--duration 30s] [--concurrency N] [--mode single-partition|spread|design]
             [--mix read=50,write=50] [--batch N] [--scale K] [--preload N] [--emulator-scale K]
             [--keep-table] [--report FILE.json] [--format text|json] [--yes-real-account] [ANALYSIS OPTIONS]
      Stress-test a design's partitions in a fresh, marked stress… table, always
      deleted afterwards; print a summary (the JSON report with --format json or
      into --report FILE). On the emulator, a short probe first measures what
      this machine serves and scales Azure's targets and the design's rates to
      it (or by --emulator-scale K). A non-emulator endpoint needs --yes-real-account.
      Ctrl+C cancels (the table is still deleted); a second Ctrl+C waits at
      most 10 s for the deletion; a third exits at once, naming the table.
  tdl stress --cleanup [--older-than 10m] (--emulator | --connection-string-env VAR) [--yes-real-account]
      Delete leftover stress tables that carry a stress test's marker and are
      older than --older-than (default 10m); tables without the marker are left
      alone. --emulator here is the emulator on 127.0.0.1:10002 (tdl emulator).
      Exit 0 done, 1 the run failed, was cancelled or a table could not be
      deleted, 2 bad usage.`;

const EMULATOR = `  tdl emulator [--port 10002] [--fidelity azure-table|off] [--scale K] [--record FILE]
      Run Azurite's table service in memory on 127.0.0.1 behind a layer that
      rejects what Azure rejects and throttles hot partitions (targets × K);
      the first stdout line is {"connectionString": …, "tableEndpoint": …}.
      Runs until SIGINT/SIGTERM; exit 0 stopped cleanly, 1 could not start.`;

const INFER = `  tdl infer --table NAME (--connection-string-env VAR | --account-url URL)
            [--sample N] [--out FILE] [--service NAME]
      Read a sample of a live table, spread over its key space (default 10,000
      entities), and write the design inferred from it: key expressions,
      property types and facts, rows and entity size (stdout without --out).
      Progress and a summary go to stderr. An --account-url with a SAS reads
      with it; without one, Microsoft Entra ID signs in. Ctrl+C stops reading
      and infers from what was read. Exit 0 done, 1 the table could not be
      read or is empty, 2 bad usage.`;

const CODEGEN = `  tdl codegen DESIGN.tdl [--table NAME] [--out DIR] [ANALYSIS OPTIONS]
      Write each table's typed key builders, key parsers and query/transaction
      helpers to DIR/<table>.keys.ts (DIR: the design's folder by default).
      Exit 0; 1 when the design has errors (those tables get no module, the
      others are written); 2 on bad usage or an unreadable design.`;

const ANALYSIS = `Analysis options (check, classify, fix, stress, codegen):
  --service          profile for designs without a 'service' line:
                     ${SERVICE_NAMES.join(", ")} (default ${SERVICE_NAMES[0]})
  --partition-target per-partition target in entities/s (default: the profile's)
  --rule CODE=LEVEL  a rule's level: off, hint, info, warning or error (repeatable,
                     or comma-separated: --rule query/class=off,key/too-long=warning)`;

const OPTIONS = `Options of check:
  --format         text (default, path:line:col severity code message), json, sarif
  --max-warnings   fail (exit 1) when there are more warnings than N
  --test-files     also apply the load rules to test files (*.test.*, *.spec.*,
                   __tests__/, test/), which are off there by default
  --design-drift   code that builds keys or queries a table differently from the
                   .tdl designs among the PATHs is an error (exit 1), for CI

${ANALYSIS}

Environment:
  TDL_DEBUG=1      print the stack of an internal failure on stderr (for a bug report)`;

/** `tdl --help`: every command. */
export const HELP = `tdl — Table Design Assistant on the command line

Usage:
${CHECK}
${CLASSIFY}
${FIX}
${STRESS}
${EMULATOR}
${INFER}
${CODEGEN}
  tdl --help | tdl --version | tdl COMMAND --help

${OPTIONS}
`;

/** `tdl COMMAND --help`, by command; a command missing here is unknown. */
export const COMMAND_HELP: Readonly<Record<string, string>> = {
  check: `Usage:\n${CHECK}\n\n${OPTIONS}\n`,
  classify: `Usage:\n${CLASSIFY}\n\n${ANALYSIS}\n`,
  fix: `Usage:\n${FIX}\n\n${ANALYSIS}\n`,
  stress: `Usage:\n${STRESS}\n\n${ANALYSIS}\n`,
  emulator: `Usage:\n${EMULATOR}\n`,
  infer: `Usage:\n${INFER}\n`,
  codegen: `Usage:\n${CODEGEN}\n\n${ANALYSIS}\n`,
};

/** Whether the arguments ask for help (`--help` or `-h` before any `--`). */
export function asksForHelp(argv: string[]): boolean {
  for (const a of argv) {
    if (a === "--") return false;
    if (a === "--help" || a === "-h") return true;
  }
  return false;
}
