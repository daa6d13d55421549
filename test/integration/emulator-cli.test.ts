import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { createServer } from "node:net";
import * as path from "node:path";

const CLI = path.resolve("dist/cli.js");

test("tdl emulator prints its connection first, serves until SIGINT, and stops cleanly", async () => {
  const child = spawn(process.execPath, [CLI, "emulator", "--port", "0", "--scale", "0.5"]);
  const first = await new Promise<string>((resolve) => { let out = ""; child.stdout.on("data", (d) => { out += d; if (out.includes("\n")) resolve(out.split("\n")[0]); }); });
  const info = JSON.parse(first) as { connectionString: string; tableEndpoint: string };
  assert.match(info.tableEndpoint, /^http:\/\/127\.0\.0\.1:\d+\/devstoreaccount1$/);
  assert.match(info.connectionString, new RegExp(`TableEndpoint=${info.tableEndpoint.replace(/\./g, "\\.")};`));
  const res = await fetch(`${info.tableEndpoint}/Tables`);
  assert.equal(res.status, 403, "Azurite answers (an unsigned request is refused) through the layer");
  child.kill("SIGINT");
  assert.equal(await new Promise((resolve) => child.once("exit", resolve)), 0);
  await assert.rejects(fetch(`${info.tableEndpoint}/Tables`));
});

test("tdl emulator exits 1 when its port is taken, and 2 on bad usage", async () => {
  const busy = createServer();
  await new Promise<void>((r) => busy.listen(0, "127.0.0.1", r));
  const port = (busy.address() as { port: number }).port;
  const r = spawnSync(process.execPath, [CLI, "emulator", "--port", String(port)], { encoding: "utf8", timeout: 30_000 });
  busy.close();
  assert.equal(r.status, 1);
  assert.match(r.stderr, /the emulator could not start: .*EADDRINUSE/);
  assert.equal(spawnSync(process.execPath, [CLI, "emulator", "--fidelity", "gcp"], { encoding: "utf8" }).status, 2);
});
