/**
 * dist/ on its own, as the VSIX ships it (no node_modules/): the bundles are
 * copied to a folder with no node_modules/ above it and run from there, so a
 * module the build left out fails here instead of in a user's VS Code.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { odata, TableClient, TableServiceClient, TableTransaction, AzureNamedKeyCredential } from "@azure/data-tables";
import { EmbeddedEmulator } from "@runtime/emulator/azurite";
import { DEV_ACCOUNT, DEV_KEY } from "@runtime/account/connection-string";

const DIST = path.resolve("dist");
let alone: string;

before(() => {
  alone = mkdtempSync(path.join(tmpdir(), "tda-dist-"));
  for (const f of ["cli.js", "azurite-table.js", "azure-identity.js", "ts-analyzer.js", "ts-lib"])
    cpSync(path.join(DIST, f), path.join(alone, f), { recursive: true });
  // The check means something only if nothing could be found in a node_modules/ above the copy.
  assert.throws(() => createRequire(path.join(alone, "x.js")).resolve("azurite/package.json"), /Cannot find module/);
});
after(() => rmSync(alone, { recursive: true, force: true }));

const credential = new AzureNamedKeyCredential(DEV_ACCOUNT, DEV_KEY);

test("dist/azurite-table.js alone serves tables, transactions and filtered reads", async () => {
  const emulator = await EmbeddedEmulator.start({ entry: path.join(alone, "azurite-table.js") });
  try {
    const endpoint = emulator.endpoint;
    const service = new TableServiceClient(endpoint, credential, { allowInsecureConnection: true });
    await service.createTable("Bundled");
    const tables: string[] = [];
    for await (const t of service.listTables()) tables.push(t.name!);
    assert.deepEqual(tables, ["Bundled"]);
    const client = new TableClient(endpoint, "Bundled", credential, { allowInsecureConnection: true });
    const tx = new TableTransaction();
    for (const rk of ["c", "a", "b"]) tx.createEntity({ partitionKey: "p", rowKey: rk, Amount: rk.charCodeAt(0) });
    await client.submitTransaction(tx.actions);
    const rows: string[] = [];
    for await (const e of client.listEntities({ queryOptions: { filter: odata`PartitionKey eq ${"p"} and RowKey ge ${"b"}` } }))
      rows.push(`${e.rowKey}:${e.Amount}`);
    assert.deepEqual(rows, ["b:98", "c:99"], "in RowKey order, the filter applied");
  } finally {
    await emulator.stop();
  }
  assert.equal(emulator.running, false);
});

test("dist/azure-identity.js alone loads the credentials an Entra ID connection uses", () => {
  const script = `
    const id = require(${JSON.stringify(path.join(alone, "azure-identity.js"))});
    if (typeof id.DefaultAzureCredential !== "function") throw new Error("no DefaultAzureCredential");
    new id.DefaultAzureCredential();
    new id.EnvironmentCredential().getToken("https://storage.azure.com/.default").then(
      () => { console.log("token"); }, (e) => { console.log(e.name); });`;
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("AZURE_")));
  const r = spawnSync(process.execPath, ["-e", script], { cwd: alone, env, encoding: "utf8", timeout: 30_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), "CredentialUnavailableError", "with no credentials in the environment, the credential says so (it loaded)");
});

test("the CLI copied without node_modules starts its emulator from the bundle beside it", async () => {
  const child = spawn(process.execPath, [path.join(alone, "cli.js"), "emulator", "--port", "0"], { cwd: alone });
  try {
    let err = "";
    child.stderr.on("data", (d) => {
      err += d;
    });
    const first = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (d) => {
        out += d;
        if (out.includes("\n")) resolve(out.split("\n")[0]);
      });
      child.once("exit", (code) => reject(new Error(`tdl emulator exited with ${code}: ${err}`)));
    });
    const info = JSON.parse(first) as { tableEndpoint: string; pid: number };
    // Azurite runs from the copy: the command line of its process names the bundle beside the CLI.
    assert.ok(readFileSync(`/proc/${info.pid}/cmdline`, "utf8").split("\0").includes(path.join(alone, "azurite-table.js")));
    const service = new TableServiceClient(info.tableEndpoint, credential, { allowInsecureConnection: true });
    await service.createTable("FromTheCli");
    const names: string[] = [];
    for await (const t of service.listTables()) names.push(t.name!);
    assert.deepEqual(names, ["FromTheCli"]);
  } finally {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGINT");
    assert.equal(await exited, 0);
  }
});
