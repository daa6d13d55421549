/**
 * One way to fail on the command line: every `tdl` command run through a
 * table of wrong inputs — a path that is not there, a table, rule code or
 * column that is not there, a table name the service cannot hold, a filter
 * that does not parse, an output in a folder that is not there — exits 2
 * with the same sentence for the same mistake and prints nothing beside it.
 * The account commands point at a port where nothing answers: had they
 * talked to the service first, they would say "nothing answers" and exit 1.
 * A table the account does not have is asked of a real Azurite.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { COMMANDS } from "@cli/commands";
import { azuriteForFile } from "../helpers/azurite";

const CLI = path.resolve("dist/cli.js");
const dir = mkdtempSync(path.join(tmpdir(), "tdl-wrong-inputs-"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));

writeFileSync(
  path.join(dir, "shop.tdl"),
  `table Orders {
  Customer: string(20) charset "a-z"
  Id: int(0..99999)
  Status: string(10)
  partitionKey = Customer
  rowKey = pad(Id, 5)
}

table Audit {
  Day: string(10)
  Seq: int(0..999)
  partitionKey = Day
  rowKey = pad(Seq, 3)
}
`,
);
writeFileSync(
  path.join(dir, "logs.csv"),
  [
    "TimeGenerated [UTC],OperationName,StatusCode,StatusText,Uri",
    `"11/24/2026, 1:00:00.000 PM",QueryEntity,200,,"https://acct.table.core.windows.net/Orders(PartitionKey='a',RowKey='1')"`,
  ].join("\r\n"),
);
mkdirSync(path.join(dir, "export"));

/** Nothing listens on port 9 (discard): a command that talked to the service would fail with "nothing answers". */
const NOWHERE =
  "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=a2V5;TableEndpoint=http://127.0.0.1:9/devstoreaccount1;";
const ACCOUNT = ["--connection-string-env", "TDL_WRONG_INPUTS"];

function tdl(args: readonly string[], connectionString = NOWHERE) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, TDL_WRONG_INPUTS: connectionString },
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface Mistake {
  /** What the user got wrong. */
  readonly mistake: string;
  /** The whole of stderr (before a usage error's `Run 'tdl X --help'` line). */
  readonly says: string;
  /** Each command that makes it, as typed. */
  readonly runs: ReadonlyArray<readonly string[]>;
}

const caret = "  Status eq\n           ^";
const TABLE_NAME = "(Azure Table Storage table names are 3–63 letters and digits, not starting with a digit)";

const MISTAKES: readonly Mistake[] = [
  {
    mistake: "a path that is not there",
    says: "tdl: gone.tdl: no such file or folder",
    runs: [
      ["check", "gone.tdl"],
      ["check", "shop.tdl", "gone.tdl"],
      ["fix", "gone.tdl"],
      ["classify", "Status eq 'a'", "--design", "gone.tdl", "--table", "Orders"],
      ["codegen", "gone.tdl"],
      ["codegen", "shop.tdl", "--migration", "gone.tdl"],
      ["migrate", "plan", "gone.tdl", "shop.tdl"],
      ["migrate", "run", "shop.tdl", "gone.tdl", "--dir", "work", ...ACCOUNT],
      ["cost", "gone.tdl"],
      ["cost", "shop.tdl", "--against", "gone.tdl"],
      ["stress", "--design", "gone.tdl", "--table", "Orders", "--emulator"],
      ["heatmap", "--logs", "gone.tdl"],
      ["heatmap", "--logs", "logs.csv", "--design", "gone.tdl"],
      ["import", "gone.tdl", "--table", "Orders", ...ACCOUNT],
      ["mcp", "--workspace", "gone.tdl"],
      ["mcp", "--connections", "gone.tdl"],
    ],
  },
  {
    mistake: "a table the design does not have",
    says: "tdl: shop.tdl: no table 'Nope' (tables: Orders, Audit)",
    runs: [
      ["classify", "Status eq 'a'", "--design", "shop.tdl", "--table", "Nope"],
      ["codegen", "shop.tdl", "--table", "Nope"],
      ["codegen", "shop.tdl", "--migration", "shop.tdl", "--table", "Nope"],
      ["migrate", "plan", "shop.tdl", "shop.tdl", "--table", "Nope"],
      ["migrate", "verify", "shop.tdl", "shop.tdl", "--table", "Nope", ...ACCOUNT],
      ["cost", "shop.tdl", "--table", "Nope"],
      ["stress", "--design", "shop.tdl", "--table", "Nope", "--emulator"],
      ["heatmap", "--logs", "logs.csv", "--design", "shop.tdl", "--design-table", "Nope"],
    ],
  },
  {
    mistake: "a table the logs do not show",
    says: "tdl: logs.csv: no table 'Nope' (tables: Orders)",
    runs: [["heatmap", "--logs", "logs.csv", "--table", "Nope"]],
  },
  {
    mistake: "a column the design's table does not have",
    says: "tdl: shop.tdl: no column 'Staus' in table Orders (columns: Customer, Id, Status)\n  Staus eq 'a'\n  ^",
    runs: [["classify", "Staus eq 'a'", "--design", "shop.tdl", "--table", "Orders"]],
  },
  {
    mistake: "a rule code tdl does not report",
    says: "tdl: --rule: no rule 'key/too-lon' (did you mean key/too-long? docs/rules.md lists them)",
    runs: [
      ["check", "shop.tdl", "--rule", "key/too-lon=off"],
      ["fix", "shop.tdl", "--rule", "key/too-lon=off"],
      ["classify", "Status eq 'a'", "--rule", "key/too-lon=off"],
      ["codegen", "shop.tdl", "--rule", "query/class=off,key/too-lon=off"],
      ["cost", "shop.tdl", "--rule", "key/too-lon=off"],
      ["stress", "--design", "shop.tdl", "--table", "Orders", "--emulator", "--rule", "key/too-lon=off"],
      ["heatmap", "--logs", "logs.csv", "--rule", "key/too-lon=off"],
    ],
  },
  {
    mistake: "a table name the service cannot hold",
    says: `tdl: --table: 'no way' is not a table name ${TABLE_NAME}`,
    runs: [
      ["export", "--table", "no way", "--out", "out", ...ACCOUNT],
      ["import", "export", "--table", "no way", ...ACCOUNT],
      ["copy", "--table", "no way", "--to-table", "Copied", "--dir", "work", ...ACCOUNT],
      ["delete", "--table", "no way", "--partition", "a", "--yes", ...ACCOUNT],
      ["infer", "--table", "no way", ...ACCOUNT],
    ],
  },
  {
    mistake: "a target table name the service cannot hold",
    says: `tdl: --to-table: 'x' is not a table name ${TABLE_NAME}`,
    runs: [
      ["copy", "--table", "Orders", "--to-table", "x", "--dir", "work", ...ACCOUNT],
      ["migrate", "run", "shop.tdl", "shop.tdl", "--table", "Orders", "--to-table", "Orders=x", "--dir", "work", ...ACCOUNT],
    ],
  },
  {
    mistake: "an old table name the service cannot hold",
    says: `tdl: --from-table: 'no way' is not a table name ${TABLE_NAME}`,
    runs: [["migrate", "verify", "shop.tdl", "shop.tdl", "--table", "Orders", "--from-table", "no way", ...ACCOUNT]],
  },
  {
    mistake: "a filter that does not parse",
    says: `tdl: the filter does not parse at character 10: expected a property name or a literal, found the end of the filter\n${caret}`,
    runs: [
      ["classify", "Status eq"],
      ["delete", "--table", "Orders", "--filter", "Status eq", "--yes", ...ACCOUNT],
    ],
  },
  {
    mistake: "an output file in a folder that is not there",
    says: `tdl: nope/out.json: cannot write (no folder ${path.join(dir, "nope")})`,
    runs: [
      ["emulator", "--port", "0", "--record", "nope/out.json"],
      ["stress", "--design", "shop.tdl", "--table", "Orders", "--emulator", "--report", "nope/out.json"],
      ["heatmap", "--logs", "logs.csv", "--out", "nope/out.json"],
      ["infer", "--table", "Orders", "--out", "nope/out.json", ...ACCOUNT],
      ["delete", "--table", "Orders", "--partition", "a", "--log", "nope/out.json", ...ACCOUNT],
    ],
  },
];

for (const { mistake, says, runs } of MISTAKES)
  test(`${mistake}: exit 2 and the same sentence from every command`, () => {
    for (const args of runs) {
      const r = tdl(args);
      const shown = `tdl ${args.join(" ")}`;
      assert.equal(r.code, 2, `${shown}: ${r.stderr}`);
      // A usage error adds where the usage is; nothing else may stand beside the sentence.
      assert.equal(r.stderr.replace(/Run 'tdl \w+ --help' for usage\.\n$/, ""), `${says}\n`, shown);
      assert.equal(r.stdout, "", `${shown}: nothing on stdout beside the error`);
    }
  });

test("every command is in the table of wrong inputs", () => {
  const covered = new Set(MISTAKES.flatMap((m) => m.runs.map((r) => r[0])));
  const missing = COMMANDS.map((c) => c.name).filter((n) => !covered.has(n));
  assert.deepEqual(missing, [], "add each command's wrong names, paths and filters to MISTAKES");
});

const azurite = azuriteForFile();

test("a table the account does not have is named, the same way by every command that reads one (exit 1: the table could not be read, as interfaces.md says)", () => {
  const host = new URL(azurite.emulator.endpoint).host;
  for (const args of [
    ["delete", "--table", "Nope", "--partition", "a", "--dry-run", ...ACCOUNT],
    ["export", "--table", "Nope", "--out", "exported", ...ACCOUNT],
    ["copy", "--table", "Nope", "--to-table", "Copied", "--dir", "copied", ...ACCOUNT],
    ["infer", "--table", "Nope", ...ACCOUNT],
  ]) {
    const r = tdl(args, azurite.emulator.connectionString);
    const shown = `tdl ${args.join(" ")}`;
    assert.equal(r.code, 1, `${shown}: ${r.stderr}`);
    assert.equal(
      r.stderr
        .split("\n")
        .filter((l) => l.startsWith("tdl:"))
        .join("\n"),
      `tdl: ${host}: no table 'Nope'`,
      shown,
    );
  }
});
