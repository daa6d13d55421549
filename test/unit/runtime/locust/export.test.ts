/**
 * What `tdl stress --export locust` writes, read back file by file: with an
 * account key, no file holds the key (nor a piece of it), and the only SAS
 * signatures are the per-engine table SAS tokens in the folder named secrets, each a
 * valid signature of this table's SAS by that key, for this table only,
 * with entity permissions and a bounded life; without a key, no signature
 * at all — not even the connection's own SAS — and the test definition
 * takes the key from the Key Vault. The Python files compile, the test
 * definition sizes and judges as asked.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHmac, randomBytes } from "node:crypto";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { prepareExport, type LocustExportOptions } from "@runtime/locust/prepare";

const KEY = randomBytes(64).toString("base64");
const DESIGN = {
  text: readFileSync("examples/student-cards/by-seller.tdl", "utf8"),
  file: "examples/student-cards/by-seller.tdl",
  table: "PurchasesBySeller",
};

function exportWith(connectionString: string, extra: Partial<LocustExportOptions> = {}) {
  return prepareExport({
    design: DESIGN,
    mode: "design",
    durationMs: 300_000,
    concurrency: 16,
    connection: { id: "t", name: "t", kind: "connection-string", endpoint: "https://acct.table.core.windows.net" },
    secret: { connectionString },
    engines: 3,
    keyVault: "my-vault",
    validForMs: 6 * 3_600_000,
    p99Ms: 750,
    calibrate: false,
    ...extra,
  });
}

/** Every `sig=` in the text, with the token it ends (up to whitespace or a quote). */
function signatures(text: string): string[] {
  return [...text.matchAll(/[^\s"'`]*\bsig=[^\s"'`]*/g)].map((m) => m[0]);
}

test("with the account key: the key is in no file, and the only signatures are one valid table SAS per engine under secrets/", async () => {
  const started = Date.now();
  const out = await exportWith(`DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${KEY};EndpointSuffix=core.windows.net`);
  const table = out.plan.table;
  assert.match(table, /^stress[0-9a-f]{10}$/);
  // Pieces of the key as they could leak: itself, any 16 characters of it, its bytes as hex or base64url.
  const bytes = Buffer.from(KEY, "base64");
  const pieces = [
    KEY,
    bytes.toString("hex"),
    bytes.toString("base64url"),
    ...Array.from({ length: KEY.length - 16 }, (_, i) => KEY.slice(i, i + 16)),
  ];
  const tokens: Array<{ file: string; token: string }> = [];
  for (const f of out.files) {
    for (const piece of pieces) assert.ok(!f.text.includes(piece), `${f.name} holds a piece of the account key`);
    for (const token of signatures(f.text)) tokens.push({ file: f.name, token });
  }
  assert.deepEqual(
    tokens.map((t) => t.file),
    ["secrets/TDL_SAS_0.txt", "secrets/TDL_SAS_1.txt", "secrets/TDL_SAS_2.txt"],
  );
  assert.equal(new Set(tokens.map((t) => t.token)).size, 3, "one token of its own per engine");
  for (const { token } of tokens) {
    const q = new URLSearchParams(token);
    assert.equal(q.get("tn"), table, "for the stress table only");
    assert.equal(q.get("sp"), "raud", "entities only: read, add, update, delete");
    assert.equal(q.get("srt"), null, "a table SAS, not an account SAS");
    const expires = Date.parse(q.get("se")!);
    assert.ok(expires > started && expires <= Date.now() + 6 * 3_600_000 + 1000, `expires ${q.get("se")}`);
    // The service's string to sign for a table SAS: the signature is this key's, over this table.
    const sts = [
      q.get("sp"),
      q.get("st"),
      q.get("se"),
      `/table/acct/${table}`,
      q.get("si"),
      q.get("sip"),
      q.get("spr"),
      q.get("sv"),
      q.get("spk"),
      q.get("srk"),
      q.get("epk"),
      q.get("erk"),
    ]
      .map((v) => v ?? "")
      .join("\n");
    assert.equal(q.get("sig"), createHmac("sha256", bytes).update(sts, "utf8").digest("base64"));
  }
  const yaml = out.files.find((f) => f.name === "loadtest.yaml")!.text;
  assert.match(yaml, /^engineInstances: 3$/m);
  assert.match(yaml, /- name: TDL_SAS_2\n {4}value: "https:\/\/my-vault\.vault\.azure\.net\/secrets\/tdl-sas-2"\n/);
  assert.ok(
    out.files.filter((f) => f.name.startsWith("secrets/")).every((f) => f.secret),
    "every SAS file is marked secret (written 0600)",
  );
  assert.match(yaml, /clientMetrics:\n {4}- percentage\(error\) > 1\n {4}- p99\(response_time_ms\) > 750\n/);
  assert.match(yaml, /- name: TDL_RATE\n {4}value: "10000"\n/);
});

test("without the key: no signature in any file — not the connection's own SAS — and the key comes from the Key Vault", async () => {
  const sas = `sv=2019-02-02&ss=t&srt=sco&sp=rwdlacu&se=2099-01-01T00:00:00Z&sig=${encodeURIComponent(randomBytes(32).toString("base64"))}`;
  const out = await exportWith(`TableEndpoint=https://acct.table.core.windows.net;SharedAccessSignature=${sas}`);
  for (const f of out.files) {
    assert.deepEqual(signatures(f.text), [], `${f.name} holds a signature`);
    assert.ok(!f.text.includes(sas.split("sig=")[1]!), `${f.name} holds the connection's SAS`);
  }
  assert.ok(!out.files.some((f) => f.name.startsWith("secrets/")));
  const yaml = out.files.find((f) => f.name === "loadtest.yaml")!.text;
  assert.match(yaml, /- name: TDL_ACCOUNT_KEY\n {4}value: "https:\/\/my-vault\.vault\.azure\.net\/secrets\/tdl-account-key"\n/);
  assert.match(yaml, /- name: TDL_CREATE_TABLE\n {4}value: "1"\n/);
});

test("the exported Python compiles, and the README names every file of the folder", async () => {
  const out = await exportWith(`DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${KEY}`);
  const dir = mkdtempSync(path.join(tmpdir(), "tdl-export-"));
  try {
    for (const f of out.files) {
      mkdirSync(path.dirname(path.join(dir, f.name)), { recursive: true });
      writeFileSync(path.join(dir, f.name), f.text);
    }
    const python = out.files.filter((f) => f.name.endsWith(".py")).map((f) => f.name);
    assert.deepEqual(python.sort(), ["PurchasesBySeller_keys.py", "locustfile.py", "tdl_locust.py", "tdl_workload.py"]);
    const compiled = spawnSync("python3", ["-m", "py_compile", ...python], { cwd: dir, encoding: "utf8" });
    assert.equal(compiled.status, 0, compiled.stderr);
    const readme = out.files.find((f) => f.name === "README.md")!.text;
    for (const f of out.files.filter((x) => !x.name.startsWith("secrets/") && !x.name.startsWith(".")))
      if (f.name !== "README.md") assert.ok(readme.includes(`\`${f.name}\``), `README.md names ${f.name}`);
    assert.match(readme, /10,000 calls\/s \(10,000 entities\/s\) takes 36 engines: one worker is assumed to sustain 400 calls\/s/);
    assert.match(readme, /This export runs 3 engines, as asked\./);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a crafted --key-vault stays one quoted value: it adds no secret entry to loadtest.yaml", async () => {
  const out = await exportWith(`TableEndpoint=https://acct.table.core.windows.net;SharedAccessSignature=sv=2019-02-02&sig=x`, {
    keyVault: 'v/secrets/k"\n  - name: EVIL\n    value: "https://evil',
  });
  const yaml = out.files.find((f) => f.name === "loadtest.yaml")!.text;
  const secrets = yaml.slice(yaml.indexOf("\nsecrets:\n"), yaml.indexOf("\nfailureCriteria:"));
  assert.deepEqual(
    [...secrets.matchAll(/^ {2}- name: (\S+)$/gm)].map((m) => m[1]),
    ["TDL_ACCOUNT_KEY"],
  );
  assert.ok(!/^ {2}- name: EVIL/m.test(yaml));
});
