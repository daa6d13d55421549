/**
 * `tdl infer` end to end (dist/cli.js) against the embedded emulator: the
 * design on stdout or in --out, progress and the summary on stderr, and the
 * exit codes of interfaces.md (0 done, 1 the table could not be read, 2 bad
 * usage), with the connection string kept out of every message.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { AzureNamedKeyCredential, generateAccountSas } from "@azure/data-tables";
import { analyzeTdl } from "@core";
import { DEV_ACCOUNT, DEV_KEY } from "@runtime/account/connection-string";
import { EmbeddedEmulator } from "@runtime/emulator/azurite";
import { session, startAzurite } from "../helpers/azurite";
import { generatedEntities, populate } from "../helpers/generated-tables";
import { roundTripDesigns } from "../helpers/infer-round-trip";

let emu: EmbeddedEmulator;
before(async () => {
  emu = await startAzurite();
  const d = roundTripDesigns().find((x) => x.model.table.name.text === "Registrations")!;
  const s = session(emu);
  await s.createTable("Registrations");
  await populate(s.clients.table("Registrations"), generatedEntities(d.model, 300));
  await s.createTable("Nothing");
});
after(async () => emu?.stop());

const CLI = path.resolve("dist/cli.js");
const tdl = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [CLI, "infer", ...args], {
    env: { ...process.env, TDL_TEST_TABLES: emu.connectionString, ...env },
    encoding: "utf8",
  });

test("tdl infer writes the design on stdout and the read, histogram and findings on stderr", () => {
  const r = tdl(["--table", "Registrations", "--connection-string-env", "TDL_TEST_TABLES"]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^\/\/ Inferred by tdl infer from the table Registrations at http:\/\/127\.0\.0\.1:\d+/);
  assert.match(r.stdout, /\n {2}index ByAge rowKey = "AGE:" \+ pad\(Age, 3\) \+ "__" \+ pad\(Bib, 5\) \+ "__" \+ Name \+ "__" \+ Gender /);
  assert.equal(analyzeTdl(r.stdout).errors.length, 0);
  assert.match(r.stderr, /reading Registrations: \d+ of up to 10,000 entities, 1 requests\n/);
  assert.match(r.stderr, /Registrations: read 600 entities in \d+ partitions with \d+ requests in [\d.]+ s \(the whole table\)\n/);
  assert.match(r.stderr, /rebuilds 600 and the RowKey expressions 600 of 600 sampled keys/);
  assert.match(r.stderr, /entities per partition:\n {2}1–9 +entities +█+ \d+ partitions/);
  assert.match(r.stderr, /the analyzer finds 0 errors, \d+ warnings and \d+ infos in it\n$/);
  assert.ok(!r.stderr.includes(emu.connectionString.split("AccountKey=")[1]?.split(";")[0] ?? "never"));
});

test("--out writes the file and --sample bounds the read", () => {
  const out = path.join(mkdtempSync(path.join(tmpdir(), "tdl-infer-")), "registrations.tdl");
  const r = tdl([
    "--table",
    "Registrations",
    "--connection-string-env",
    "TDL_TEST_TABLES",
    "--sample",
    "100",
    "--out",
    out,
    "--service",
    "cosmos-table",
  ]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, "");
  const text = readFileSync(out, "utf8");
  assert.match(text, /\nservice cosmos-table\n/);
  assert.match(text, /partitionKey = Event \+ "__" \+ Distance/);
  assert.match(r.stderr, /read 100 entities/);
  assert.match(r.stderr, new RegExp(`wrote ${out.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\n$`));
});

test("a missing or empty table exits 1; bad usage exits 2; the secret never shows", () => {
  const missing = tdl(["--table", "NoSuchTable", "--connection-string-env", "TDL_TEST_TABLES"]);
  assert.equal(missing.status, 1, missing.stderr);
  assert.match(missing.stderr, /^tdl: .*NoSuchTable/);
  const empty = tdl(["--table", "Nothing", "--connection-string-env", "TDL_TEST_TABLES"]);
  assert.equal(empty.status, 1);
  assert.match(empty.stderr, /\ntdl: the table Nothing holds no entities: there is nothing to infer a design from\n$/);
  for (const [args, message] of [
    [["--connection-string-env", "TDL_TEST_TABLES"], /infer needs --table NAME/],
    [["--table", "Things"], /choose one source: --connection-string-env VAR or --account-url URL/],
    [
      ["--table", "Things", "--connection-string-env", "TDL_TEST_TABLES", "--account-url", "https://a.table.core.windows.net"],
      /choose one source/,
    ],
    [["--table", "Things", "--connection-string-env", "TDL_UNSET_VAR"], /the environment variable TDL_UNSET_VAR is not set/],
    [
      ["--table", "Things", "--connection-string-env", "TDL_TEST_TABLES", "--sample", "0"],
      /--sample needs a whole number from 1 to 1,000,000/,
    ],
    [["--table", "Things", "--connection-string-env", "TDL_TEST_TABLES", "--sample", "1e3x"], /--sample needs a whole number/],
    [["--table", "Things", "--connection-string-env", "TDL_TEST_TABLES", "--service", "dynamo"], /--service/],
    [["--table", "Things", "--connection-string-env", "TDL_TEST_TABLES", "stray"], /infer takes no positional arguments/],
  ] as const) {
    const r = tdl([...args], { TDL_UNSET_VAR: "" });
    assert.equal(r.status, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, message);
  }
  const broken = tdl(["--table", "Things", "--connection-string-env", "TDL_BROKEN"], {
    TDL_BROKEN: "AccountName=x;AccountKey=c2VjcmV0c2VjcmV0c2VjcmV0;Nonsense",
  });
  assert.equal(broken.status, 2, broken.stderr);
  assert.ok(!broken.stderr.includes("c2VjcmV0c2VjcmV0c2VjcmV0"), broken.stderr);
});

test("--account-url with a SAS reads with it; a SAS that may not read fails with exit 1 and no part of the signature", () => {
  const key = new AzureNamedKeyCredential(DEV_ACCOUNT, DEV_KEY);
  const expiresOn = new Date(Date.now() + 3_600_000);
  const reading = generateAccountSas(key, { permissions: { query: true, list: true }, resourceTypes: "sco", expiresOn });
  const ok = tdl(["--table", "Registrations", "--account-url", `${emu.endpoint}?${reading}`, "--sample", "50"]);
  assert.equal(ok.status, 0, ok.stderr);
  assert.match(ok.stdout, /partitionKey = Event \+ "__" \+ Distance/);
  const writeOnly = generateAccountSas(key, { permissions: { add: true }, resourceTypes: "sco", expiresOn });
  const refused = tdl(["--table", "Registrations", "--account-url", `${emu.endpoint}?${writeOnly}`]);
  assert.equal(refused.status, 1, refused.stderr);
  assert.match(refused.stderr, /^(reading Registrations[^\n]*\n)*tdl: cannot read the table Registrations: /);
  const sig = decodeURIComponent(/(?:^|&)sig=([^&]+)/.exec(writeOnly)![1]);
  for (let i = 0; i + 8 <= sig.length; i++) assert.ok(!refused.stderr.includes(sig.slice(i, i + 8)), refused.stderr);
});
