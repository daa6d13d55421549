/**
 * A real JSON-RPC client for the built language server: spawns
 * `node dist/server.js --stdio` and speaks LSP to it, waiting on events
 * (never on fixed sleeps).
 */
import { ChildProcess, spawn } from "node:child_process";
import * as path from "node:path";
import {
  createProtocolConnection, InitializeRequest, InitializedNotification, ProtocolConnection, PublishDiagnosticsNotification,
  PublishDiagnosticsParams, StreamMessageReader, StreamMessageWriter, DidOpenTextDocumentNotification,
  DidChangeTextDocumentNotification, ShutdownRequest, ExitNotification, ConfigurationRequest, RegistrationRequest,
} from "vscode-languageserver-protocol/node";

export const SERVER = path.resolve(__dirname, "../../dist/server.js");

export class LspClient {
  readonly connection: ProtocolConnection;
  private readonly child: ChildProcess;
  private readonly waiters: Array<{ uri: string; pred: (p: PublishDiagnosticsParams) => boolean; resolve: (p: PublishDiagnosticsParams) => void }> = [];
  readonly latest = new Map<string, PublishDiagnosticsParams>();
  private versions = new Map<string, number>();

  constructor(settings: Record<string, unknown> = {}) {
    this.child = spawn(process.execPath, [SERVER, "--stdio"], { stdio: ["pipe", "pipe", "inherit"] });
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
    this.connection.onRequest(ConfigurationRequest.type, (p) => p.items.map(() => settings));
    this.connection.onRequest(RegistrationRequest.type, () => undefined);
    this.connection.listen();
  }

  async initialize(): Promise<void> {
    await this.connection.sendRequest(InitializeRequest.type, {
      processId: process.pid, rootUri: null, workspaceFolders: null,
      capabilities: { workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: true } }, textDocument: { publishDiagnostics: { versionSupport: true } } },
    });
    await this.connection.sendNotification(InitializedNotification.type, {});
  }

  /** Resolves with the next diagnostics for `uri` that satisfy `pred` (or the latest, if they already do). */
  diagnostics(uri: string, pred: (p: PublishDiagnosticsParams) => boolean = () => true): Promise<PublishDiagnosticsParams> {
    const have = this.latest.get(uri);
    if (have && pred(have)) return Promise.resolve(have);
    return new Promise((resolve) => this.waiters.push({ uri, pred, resolve }));
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
    await this.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ text }] });
    return version;
  }

  async changeRange(uri: string, range: { start: { line: number; character: number }; end: { line: number; character: number } }, text: string): Promise<number> {
    const version = (this.versions.get(uri) ?? 1) + 1;
    this.versions.set(uri, version);
    await this.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ range, text }] });
    return version;
  }

  async close(): Promise<void> {
    try {
      await this.connection.sendRequest(ShutdownRequest.type);
      await this.connection.sendNotification(ExitNotification.type);
    } finally {
      this.connection.dispose();
      if (this.child.exitCode === null) await new Promise((r) => { this.child.once("exit", r); setTimeout(() => this.child.kill(), 2000).unref(); });
    }
  }
}
