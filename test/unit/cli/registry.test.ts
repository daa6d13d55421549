/**
 * The registry of `tdl` subcommands is the one source of what a command
 * takes: README.md's table, `tdl --help` and `tdl X --help` come from it,
 * and the parser reads a new declaration without any other file changing.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { COMMANDS } from "@cli/commands";
import { withCurrentCommandTable } from "@cli/commands-doc";
import { command } from "@cli/command";
import { parseCommand } from "@cli/args";
import { commandHelp, mainHelp, synopsis } from "@cli/help";
import { ANALYSIS, choice, duration, flag, integer, text } from "@cli/options";
import { runCli } from "@cli/main";

test("README.md's table of commands is the one the declarations generate (npm run docs:cli)", () => {
  const readme = readFileSync("README.md", "utf8");
  assert.equal(withCurrentCommandTable(readme, COMMANDS), readme, "run npm run docs:cli and commit README.md");
});

test("every rule of a declaration names options it declares, and every option is in its help", () => {
  for (const c of COMMANDS) {
    const names = Object.keys(c.options);
    const named = [
      ...(c.required ?? []),
      ...(c.oneOf ?? []).flatMap((g) => g.options),
      ...(c.together ?? []).flat(),
      ...(c.forms ?? []).flatMap((f) => [f.selector, ...f.options, ...f.own]),
    ];
    assert.deepEqual(
      named.filter((n) => !names.includes(n)),
      [],
      c.name,
    );
    const help = commandHelp(c);
    assert.match(help, new RegExp(`^Usage:\\n  tdl ${c.name}`), c.name);
    for (const n of names) assert.ok(help.includes(`--${n}`), `${c.name} --help names --${n}`);
    assert.ok(mainHelp(COMMANDS).includes(synopsis(c)), `tdl --help shows the usage of ${c.name}`);
  }
  assert.deepEqual(
    COMMANDS.map((c) => c.name),
    [
      "check",
      "classify",
      "fix",
      "stress",
      "emulator",
      "infer",
      "codegen",
      "cost",
      "heatmap",
      "export",
      "import",
      "copy",
      "delete",
      "migrate",
      "mcp",
    ],
  );
});

/** A command the registry does not hold, declared as a future one would be (a `tdl purge`). */
const remove = command({
  name: "purge",
  summary: "Delete a partition or the entities a filter selects",
  description: "Asks first; without a terminal it refuses.",
  exits: "0 done; 1 the job failed; 2 bad usage",
  options: {
    table: text("T", "the table"),
    partition: text("P", "one partition"),
    filter: text("F", "an OData filter"),
    batch: integer("N", "entities per transaction", { min: 1, max: 100 }).default(100),
    format: choice(["text", "json"], "what stdout says").default("text"),
    "dry-run": flag("say what would be deleted"),
    yes: flag("do not ask"),
    resume: text("JOB", "go on with a job that stopped"),
    "older-than": duration("10m", "with --resume: only jobs older than this").default(600_000, "10m"),
    ...ANALYSIS.options,
  },
  required: ["table"],
  oneOf: [{ options: ["partition", "filter"], what: "selection" }],
  forms: [{ selector: "resume", options: ["older-than", "yes"], own: ["older-than"], description: "Go on with a stopped job." }],
  run: ({ options }) => ({ stdout: `${options.table} ${options.batch + 1} ${options.format}\n`, stderr: "", exitCode: 0 }),
});

test("a new declaration is parsed, checked and documented with no other change: values, defaults, rules, forms", async () => {
  const args = parseCommand(remove, ["--table", "Orders", "--partition=p1", "--yes", "--rule", "a=off", "--rule", "b=error"]);
  assert.deepEqual(
    { ...args.options },
    {
      table: "Orders",
      partition: "p1",
      filter: undefined,
      batch: 100,
      format: "text",
      "dry-run": false,
      yes: true,
      resume: undefined,
      "older-than": 600_000,
      service: undefined,
      "partition-target": undefined,
      rule: "a=off,b=error",
    },
  );
  assert.equal((await remove.run(args, { out: () => undefined, err: () => undefined })).stdout, "Orders 101 text\n");
  const refusals: Array<[string[], string]> = [
    [["--partition", "p"], "purge needs --table T (or --resume)"],
    [["--table", "T"], "choose one selection: --partition P or --filter F"],
    [["--table", "T", "--partition", "p", "--filter", "x"], "choose one selection: --partition P or --filter F"],
    [["--table", "T", "--partition", "p", "--batch", "101"], "--batch needs a whole number from 1 to 100"],
    [["--table", "T", "--partition", "p", "--format", "xml"], "--format must be text or json, not 'xml'"],
    [["--table", "T", "--partition", "p", "--older-than", "1m"], "--older-than goes with --resume"],
    [["--resume", "j1", "--partition", "p"], "--resume does not take --partition: tdl purge --resume JOB [--older-than 10m] [--yes]"],
    [["--table", "T", "--partition", "p", "--yes=1"], "--yes takes no value"],
    [["--table", "T", "--partition"], "--partition needs a value"],
    [["--table", "T", "--partition", "p", "stray"], "purge takes no positional arguments (got 'stray')"],
    [["--table", "T", "--partition", "p", "-x"], "unknown option -x (an argument that starts with '-' goes after --)"],
    [["--table", "T", "--partition", "p", "--constructor"], "unknown option --constructor"],
  ];
  for (const [argv, message] of refusals) assert.throws(() => parseCommand(remove, argv), { kind: "usage", message }, argv.join(" "));
  assert.equal(
    synopsis(remove).replace(/\s+/g, " ").trim(),
    "tdl purge --table T (--partition P | --filter F) [--batch N] [--format text|json] [--dry-run] [--yes] [ANALYSIS OPTIONS]",
  );
  assert.match(commandHelp(remove), /\n {2}--batch N {21}entities per transaction \(default 100\)\n/);
  assert.match(mainHelp([...COMMANDS, remove]), /Analysis options \(check, classify, fix, stress, codegen, cost, heatmap, purge\):/);
});

test("tdl's own entry maps what a command throws: a usage error points to the command's --help", async () => {
  const r = await runCli(["stress", "--emulator", "--connection-string-env", "X", "--design", "d.tdl", "--table", "T"]);
  assert.deepEqual(r, {
    stdout: "",
    stderr: "tdl: choose one target: --emulator or --connection-string-env VAR\nRun 'tdl stress --help' for usage.\n",
    exitCode: 2,
  });
  assert.equal((await runCli(["frobnicate"])).stderr, "tdl: unknown command 'frobnicate'\nRun 'tdl --help' for usage.\n");
  assert.equal((await runCli(["help", "codegen"])).stdout, commandHelp(COMMANDS.find((c) => c.name === "codegen")!));
});
