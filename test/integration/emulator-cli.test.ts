import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { createServer } from "node:net";
import * as path from "node:path";
import { rawRequest } from "../helpers/raw-http";

const CLI = path.resolve("dist/cli.js");

test("tdl emulator prints its connection first, serves until SIGINT, and stops cleanly", async () => {
  const child = spawn(process.execPath, [CLI, "emulator", "--port", "0", "--scale", "0.5"]);
  const first = await new Promise<string>((resolve) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      if (out.includes("\n")) resolve(out.split("\n")[0]);
    });
  });
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

test("tdl emulator survives the unauthenticated requests that ended it (`-.`, deep nesting, malformed URLs) and counts them on stop", async () => {
  const child = spawn(process.execPath, [CLI, "emulator", "--port", "0"]);
  let stderr = "";
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  const first = await new Promise<string>((resolve) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      if (out.includes("\n")) resolve(out.split("\n")[0]);
    });
  });
  const info = JSON.parse(first) as { tableEndpoint: string };
  const { port, pathname } = new URL(info.tableEndpoint);
  const targets = [
    `${pathname}/Orders()?$filter=${encodeURIComponent("Amount gt -.")}`,
    `${pathname}/Orders()?$filter=${encodeURIComponent("(".repeat(2000) + "A eq 1" + ")".repeat(2000))}`,
    // 18 KB of `not`: past the 16 KiB of request line and headers read, refused as malformed HTTP (1 of 2).
    `${pathname}/Orders()?$filter=${encodeURIComponent("not ".repeat(3000) + "A")}`,
    "/%zz",
    "//",
    `${pathname}/Orders()?${"&=".repeat(3000)}`,
  ];
  for (const target of targets) {
    const a = await rawRequest(Number(port), `GET ${target} HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\nConnection: close\r\n\r\n`);
    assert.ok(a.status >= 400 && a.headers["x-ms-error-code"], `${target.slice(0, 60)} → ${a.status}`);
  }
  const garbage = await rawRequest(Number(port), "\u0000garbage\r\n\r\n"); // 2 of 2
  assert.equal(garbage.status, 400);
  assert.equal(child.exitCode, null, "still running");
  assert.equal((await fetch(`${info.tableEndpoint}/Tables`)).status, 403, "and still answering");
  child.kill("SIGINT");
  assert.equal(await new Promise((resolve) => child.once("exit", resolve)), 0);
  assert.match(stderr, /stopped after \d+ requests \(2 refused as malformed HTTP, 0 internal errors survived\)/);
});

test("tdl emulator says so on stderr when Azurite behind it has gone, and goes on answering 500", async () => {
  const child = spawn(process.execPath, [CLI, "emulator", "--port", "0"]);
  let stderr = "";
  const gone = new Promise<void>((resolve) =>
    child.stderr.on("data", (d) => {
      stderr += d;
      if (stderr.includes("has exited")) resolve();
    }),
  );
  const first = await new Promise<string>((resolve) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      if (out.includes("\n")) resolve(out.split("\n")[0]);
    });
  });
  const info = JSON.parse(first) as { tableEndpoint: string; pid: number };
  process.kill(info.pid, "SIGKILL");
  await gone;
  assert.match(stderr, new RegExp(`Azurite \\(pid ${info.pid}\\) has exited; every request is answered 500 InternalError`));
  const res = await fetch(`${info.tableEndpoint}/Tables`, { headers: { accept: "application/json" } });
  assert.equal(res.status, 500);
  assert.equal(res.headers.get("x-ms-error-code"), "InternalError");
  child.kill("SIGINT");
  assert.equal(await new Promise((resolve) => child.once("exit", resolve)), 0);
});
