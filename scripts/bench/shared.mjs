// What the bench's sections share: the repository's root, a language server
// driven over JSON-RPC (open, edit, wait for diagnostics), percentiles, the
// keystroke measure, a process's CPU time, and Azurite on a free port.
import * as path from "node:path";
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { tsImport } from "tsx/esm/api";

/** The repository's root: the sections run dist/, examples/ and scripts from it. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
/** CommonJS packages (the SDK, TypeScript, the language server protocol) and the bundles in dist/. */
export const require = createRequire(import.meta.url);

// Figures are written as every message writes them (core/text/words.ts), loaded through tsx as the TypeScript sections are.
export const { formatCount, plural } = await tsImport("../../core/text/words.ts", import.meta.url);
export const rpc = require("vscode-languageserver-protocol/node");
/** Measured edits per keystroke measurement (BENCH_EDITS), after WARMUP edits that are not counted. */
/** The compiler options of every project a bench writes (TypeScript's own check runs with the same). */
export const BENCH_TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    module: "Node16",
    moduleResolution: "Node16",
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  },
};

export const EDITS = Number(process.env.BENCH_EDITS ?? 40);
export const WARMUP = 5;

/** A language server over JSON-RPC on stdio: open a file, edit a line, wait for its diagnostics. */
export class Server {
  constructor(command, args, languageId, env = process.env) {
    this.languageId = languageId;
    this.child = spawn(command, args, { stdio: ["pipe", "pipe", "ignore"], env });
    this.conn = rpc.createProtocolConnection(new rpc.StreamMessageReader(this.child.stdout), new rpc.StreamMessageWriter(this.child.stdin));
    this.waiters = [];
    this.conn.onNotification(rpc.PublishDiagnosticsNotification.type, (p) => {
      const w = this.waiters.shift();
      if (w) w(p);
    });
    this.conn.onRequest(rpc.ConfigurationRequest.type, (p) => p.items.map(() => ({})));
    this.conn.onRequest(rpc.RegistrationRequest.type, () => undefined);
    this.conn.onRequest("window/workDoneProgress/create", () => null);
    this.conn.onNotification(() => undefined);
    this.child.once("exit", (code) => {
      for (const w of this.waiters.splice(0)) w(Promise.reject(new Error(`${command} ${args.join(" ")} exited with code ${code}`)));
    });
    this.conn.listen();
  }

  async init() {
    await this.conn.sendRequest(rpc.InitializeRequest.type, {
      processId: process.pid,
      rootUri: null,
      workspaceFolders: null,
      capabilities: { workspace: { configuration: true } },
    });
    await this.conn.sendNotification(rpc.InitializedNotification.type, {});
  }

  nextDiagnostics() {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /**
   * Opens a document: the time to its first diagnostics and to its complete
   * ones (`complete` says which publication is: ours sends a large design's
   * first tables first, without a version, then the whole with it).
   */
  async open(uri, text, complete = () => true) {
    const started = performance.now();
    let got = this.nextDiagnostics();
    await this.conn.sendNotification(rpc.DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: this.languageId, version: 1, text },
    });
    const first = await got;
    const ms = performance.now() - started;
    let d = first;
    while (!complete(d)) {
      got = this.nextDiagnostics();
      d = await got;
    }
    return { ms, count: first.diagnostics.length, completeMs: performance.now() - started, completeCount: d.diagnostics.length };
  }

  /** Replaces one line (an incremental change, as an editor sends per keystroke) and waits for the diagnostics. */
  async edit(uri, version, line, oldLength, newText) {
    const started = performance.now();
    const got = this.nextDiagnostics();
    await this.conn.sendNotification(rpc.DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version },
      contentChanges: [{ range: { start: { line, character: 0 }, end: { line, character: oldLength } }, text: newText }],
    });
    await got;
    return performance.now() - started;
  }

  async stop() {
    try {
      await Promise.race([this.conn.sendRequest(rpc.ShutdownRequest.type), new Promise((r) => setTimeout(r, 2000))]);
      await this.conn.sendNotification(rpc.ExitNotification.type);
    } catch {
      /* already gone */
    }
    this.conn.dispose();
    this.child.kill();
  }
}

/** The `p`-th percentile of `xs`. */
export const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

/** Opens `text`, then times edits of `editLine` cycling through `variants`: open times (first and complete diagnostics), p50, p90 and the slowest edit. */
export async function measure(name, server, uri, text, editLine, variants, complete = () => true) {
  await server.init();
  const open = await server.open(uri, text, complete);
  const lines = text.split("\n");
  let current = lines[editLine];
  const samples = [];
  for (let i = 0; i < WARMUP + EDITS; i++) {
    const next = variants[i % variants.length];
    const ms = await server.edit(uri, i + 2, editLine, current.length, next);
    current = next;
    if (i >= WARMUP) samples.push(ms);
  }
  await server.stop();
  return {
    name,
    lines: lines.length,
    openMs: open.ms,
    diagnostics: open.count,
    completeMs: open.completeMs,
    completeDiagnostics: open.completeCount,
    p50: pct(samples, 50),
    p90: pct(samples, 90),
    max: Math.max(...samples),
  };
}

/** CPU seconds a process has used so far (user + system), from /proc. */
export function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Starts Azurite's table service on a free port; resolves when it listens. */
export async function startAzurite() {
  const port = await new Promise((resolve) => {
    const s = require("node:net").createServer();
    s.listen(0, "127.0.0.1", () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
  });
  const main = path.join(path.dirname(require.resolve("azurite/package.json")), "dist", "src", "table", "main.js");
  const child = spawn(
    process.execPath,
    [
      main,
      "--tableHost",
      "127.0.0.1",
      "--tablePort",
      String(port),
      "--inMemoryPersistence",
      "--disableTelemetry",
      "--skipApiVersionCheck",
      "--silent",
    ],
    { stdio: ["ignore", "pipe", "ignore"] },
  );
  await new Promise((resolve, reject) => {
    child.stdout.on("data", (d) => {
      if (String(d).includes("successfully started")) resolve();
    });
    child.once("exit", (c) => reject(new Error(`Azurite exited ${c}`)));
  });
  const key = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
  return {
    child,
    connectionString: `DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=${key};TableEndpoint=http://127.0.0.1:${port}/devstoreaccount1;`,
  };
}

/** `fn`, tried up to four times 200 ms apart (Azurite is sometimes not ready at the first request). */
export async function withRetry(fn) {
  for (let i = 0; ; i++) {
    try {
      return await fn();
    } catch (e) {
      if (i >= 3) throw e;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/**
 * A language server started as the extension starts it (with --expose-gc, so it collects when the editor is idle),
 * its heap logged after every collection, and its memory read at rest: after a pause longer than the server's idle
 * moment (server/lsp/idle-gc.ts), as between bursts of typing.
 */
export async function heapServer(dir, language) {
  const heapLog = path.join(dir, "heap.log");
  writeFileSync(heapLog, "");
  const server = new Server(
    process.execPath,
    [
      "--expose-gc",
      "--import",
      pathToFileURL(path.join(ROOT, "scripts", "bench-heap.mjs")).href,
      path.join(ROOT, "dist/server.js"),
      "--stdio",
    ],
    language,
    { ...process.env, BENCH_HEAP_LOG: heapLog },
  );
  const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.child.pid}/status`, "utf8"))[1]) / 1024;
  /** Resident and live heap sizes in MiB, once the server has collected after the last analysis (the first, a cold program, takes longest). */
  const atRest = async () => {
    const before = readFileSync(heapLog, "utf8").length;
    for (let waited = 0; waited < 2500 || (readFileSync(heapLog, "utf8").length === before && waited < 15_000); waited += 250)
      await new Promise((r) => setTimeout(r, 250));
    // V8 gives freed pages back in the background: the resident size is read a moment after the collection.
    await new Promise((r) => setTimeout(r, 2000));
    const heaps = readFileSync(heapLog, "utf8").trim().split("\n").filter(Boolean);
    return { rss: rss(), heap: heaps.length ? Number(heaps[heaps.length - 1]) / 2 ** 20 : NaN };
  };
  return { server, atRest };
}
