/**
 * A real JSON-RPC client for the built language server: spawns
 * `node dist/server.js --stdio` and speaks LSP to it, waiting on events
 * (never on fixed sleeps). `LSP_SERVER=path/to/server.js` points the tests
 * at another build (to check that a regression test fails on old code).
 */
import { ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import {
  createProtocolConnection,
  InitializeRequest,
  InitializedNotification,
  ProtocolConnection,
  PublishDiagnosticsNotification,
  PublishDiagnosticsParams,
  StreamMessageReader,
  StreamMessageWriter,
  DidOpenTextDocumentNotification,
  DidChangeTextDocumentNotification,
  DidChangeWatchedFilesNotification,
  DidCloseTextDocumentNotification,
  ShutdownRequest,
  ExitNotification,
  ConfigurationRequest,
  RegistrationRequest,
} from "vscode-languageserver-protocol/node";

export const SERVER = process.env.LSP_SERVER ? path.resolve(process.env.LSP_SERVER) : path.resolve(__dirname, "../../dist/server.js");

/** The server did not answer in time, or exited while we waited. */
export class ServerUnresponsive extends Error {}

export class LspClient {
  readonly connection: ProtocolConnection;
  private readonly child: ChildProcess;
  private readonly waiters: Array<{
    uri: string;
    pred: (p: PublishDiagnosticsParams) => boolean;
    resolve: (p: PublishDiagnosticsParams) => void;
  }> = [];
  readonly latest = new Map<string, PublishDiagnosticsParams>();
  private versions = new Map<string, number>();
  /** Every `window/logMessage` of the server, in order. */
  readonly logs: string[] = [];
  /** Every `window/showMessage` (what the user sees in a notification), in order. */
  readonly shown: string[] = [];
  /** Every capability the server registered dynamically (LSP's registerCapability request), in order. */
  readonly registered: Array<{ method: string; registerOptions?: unknown }> = [];
  /** Resolves with the exit code (or signal) when the server process ends. */
  readonly exited: Promise<number | string>;
  private exitStatus: number | string | undefined;

  constructor(settings: Record<string, unknown> = {}) {
    this.child = spawn(process.execPath, [SERVER, "--stdio"], { stdio: ["pipe", "pipe", "inherit"] });
    this.exited = new Promise((resolve) =>
      this.child.once("exit", (code, signal) => {
        this.exitStatus = code ?? signal ?? "unknown";
        resolve(this.exitStatus);
      }),
    );
    // A write to a server that has died must fail the test that wrote, not the test process.
    this.child.stdin!.on("error", () => undefined);
    this.connection = createProtocolConnection(new StreamMessageReader(this.child.stdout!), new StreamMessageWriter(this.child.stdin!));
    this.connection.onNotification(PublishDiagnosticsNotification.type, (p) => {
      this.latest.set(p.uri, p);
      for (let i = this.waiters.length - 1; i >= 0; i--) {
        const w = this.waiters[i];
        if (w.uri === p.uri && w.pred(p)) {
          this.waiters.splice(i, 1);
          w.resolve(p);
        }
      }
    });
    this.connection.onNotification("window/logMessage", (p: { message: string }) => {
      this.logs.push(p.message);
    });
    this.connection.onNotification("window/showMessage", (p: { message: string }) => {
      this.shown.push(p.message);
    });
    this.connection.onRequest(ConfigurationRequest.type, (p) => p.items.map(() => settings));
    this.connection.onRequest(RegistrationRequest.type, (p) => {
      this.registered.push(...p.registrations.map((r) => ({ method: r.method, registerOptions: r.registerOptions })));
    });
    this.connection.listen();
  }

  /** True while the server process runs. */
  get alive(): boolean {
    return this.exitStatus === undefined;
  }

  /** The server's peak resident memory so far, in bytes (Linux's VmHWM), or undefined where /proc does not say. */
  peakMemory(): number | undefined {
    try {
      const kb = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${this.child.pid}/status`, "utf8"));
      return kb ? Number(kb[1]) * 1024 : undefined;
    } catch {
      return undefined;
    }
  }

  /** Initializes the server, with `folder` (a path) as its one workspace folder when given. */
  async initialize(folder?: string): Promise<void> {
    const uri = folder ? pathToFileURL(folder).href : null;
    await this.connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: uri,
      workspaceFolders: uri ? [{ uri, name: path.basename(folder!) }] : null,
      capabilities: {
        workspace: {
          configuration: true,
          didChangeConfiguration: { dynamicRegistration: true },
          didChangeWatchedFiles: { dynamicRegistration: true },
        },
        textDocument: { publishDiagnostics: { versionSupport: true } },
      },
    });
    await this.connection.sendNotification(InitializedNotification.type, {});
  }

  /** Resolves with the next diagnostics for `uri` that satisfy `pred` (or the latest, if they already do). */
  diagnostics(uri: string, pred: (p: PublishDiagnosticsParams) => boolean = () => true): Promise<PublishDiagnosticsParams> {
    const have = this.latest.get(uri);
    if (have && pred(have)) return Promise.resolve(have);
    return new Promise((resolve) => this.waiters.push({ uri, pred, resolve }));
  }

  /** Diagnostics of one version of `uri`, or ServerUnresponsive after `ms` or when the server exits first. */
  diagnosticsOf(uri: string, version: number, ms: number): Promise<PublishDiagnosticsParams> {
    return this.within(
      `diagnostics of ${uri} version ${version}`,
      ms,
      this.diagnostics(uri, (p) => p.version === version),
    );
  }

  /** Sends any request (by method name, any params, as a hostile client would); ServerUnresponsive after `ms` or on exit. */
  request(method: string, params: unknown, ms: number): Promise<unknown> {
    return this.within(method, ms, this.connection.sendRequest(method, params));
  }

  /** Races `promise` with a timer and the server's exit: neither a hang nor a crash can make a test wait forever. */
  async within<T>(what: string, ms: number, promise: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ServerUnresponsive(`${what}: no answer within ${ms} ms`)), ms);
    });
    const exit = this.exited.then((s) => {
      throw new ServerUnresponsive(`${what}: the server exited (${s})`);
    });
    try {
      return await Promise.race([promise, timeout, exit]);
    } finally {
      clearTimeout(timer);
    }
  }

  async open(uri: string, text: string, languageId = "tdl"): Promise<void> {
    this.versions.set(uri, 1);
    this.latest.delete(uri);
    await this.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId, version: 1, text } });
  }

  /** Replaces the whole text; returns the new version. */
  async change(uri: string, text: string): Promise<number> {
    const version = (this.versions.get(uri) ?? 1) + 1;
    this.versions.set(uri, version);
    await this.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version },
      contentChanges: [{ text }],
    });
    return version;
  }

  async changeRange(
    uri: string,
    range: { start: { line: number; character: number }; end: { line: number; character: number } },
    text: string,
  ): Promise<number> {
    const version = (this.versions.get(uri) ?? 1) + 1;
    this.versions.set(uri, version);
    await this.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version },
      contentChanges: [{ range, text }],
    });
    return version;
  }

  /** Tells the server that files changed on disk, as the client's file watcher does (type: 1 created, 2 changed, 3 deleted). */
  async filesChanged(changes: Array<{ uri: string; type: 1 | 2 | 3 }>): Promise<void> {
    await this.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes });
  }

  /** Closes a document, as the editor does when its tab is closed (saved or not). */
  async closeDocument(uri: string): Promise<void> {
    this.versions.delete(uri);
    await this.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }

  /** Stops a server that no longer answers (a hang): by its PID, at once. */
  async kill(): Promise<void> {
    this.connection.dispose();
    if (this.alive) {
      this.child.kill("SIGKILL");
      await this.exited;
    }
  }

  async close(): Promise<void> {
    if (!this.alive) return this.kill();
    try {
      await this.within("shutdown", 5000, this.connection.sendRequest(ShutdownRequest.type));
      await this.connection.sendNotification(ExitNotification.type);
    } catch {
      // A server that does not shut down is killed below.
    } finally {
      this.connection.dispose();
      if (this.alive)
        await new Promise((r) => {
          this.child.once("exit", r);
          setTimeout(() => this.child.kill("SIGKILL"), 2000).unref();
        });
    }
  }
}
