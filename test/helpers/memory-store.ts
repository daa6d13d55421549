/** Test doubles for the host's UI and storage (the account and the controller are real). */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { ConnectionStore, ExplorerUi } from "@client/explorer/controller";
import { ConnectionInfo } from "@protocol/entities";
import type { Secret } from "@runtime";
import { TransferFormat } from "@protocol/pages";

export class MemoryStore implements ConnectionStore {
  private readonly infos: ConnectionInfo[] = [];
  private readonly secrets = new Map<string, Secret>();
  private last: string | undefined;
  lastUsed() {
    return this.last;
  }
  async markUsed(id: string) {
    this.last = id;
  }
  list() {
    return [...this.infos];
  }
  async save(info: ConnectionInfo, secret: Secret) {
    const i = this.infos.findIndex((c) => c.id === info.id);
    if (i >= 0) this.infos[i] = info;
    else this.infos.push(info);
    this.secrets.set(info.id, secret);
  }
  async secret(id: string) {
    return this.secrets.get(id);
  }
  async remove(id: string) {
    const i = this.infos.findIndex((c) => c.id === id);
    if (i >= 0) this.infos.splice(i, 1);
    this.secrets.delete(id);
  }
}

/** The emulator a scripted UI hands out: Azurite alone or behind the fidelity layer. */
export interface EmulatorLike {
  endpoint: string;
  connectionString: string;
}

export class ScriptedUi implements ExplorerUi {
  confirmations: string[] = [];
  answer = true;
  importText: Record<TransferFormat, string> = { json: "[]", csv: "PartitionKey,RowKey\r\n" };
  saved: Array<{ name: string; text: string }> = [];
  /** Whether the emulator counts as running before anyone asked for it (connect on open). */
  emulatorRunning = false;
  /** A connection the next `promptConnection` returns. */
  nextConnection: { info: ConnectionInfo; secret: Secret } | undefined;

  constructor(private readonly emu: EmulatorLike) {}

  /** The designs "open in the editors": the filter editor completes their properties. */
  designs: string[] = [];
  openDesigns() {
    return this.designs;
  }

  /** Runs when the host asks for a confirmation, before the answer (a test can change the world then). */
  onConfirm: ((message: string) => void) | undefined;
  async confirm(message: string) {
    this.confirmations.push(message);
    this.onConfirm?.(message);
    return this.answer;
  }
  async promptConnection() {
    const next = this.nextConnection;
    this.nextConnection = undefined;
    return next;
  }
  async emulator() {
    this.emulatorRunning = true;
    return {
      info: { id: "emulator", name: "Emulator", kind: "emulator" as const, endpoint: this.emu.endpoint },
      secret: { connectionString: this.emu.connectionString },
    };
  }
  async runningEmulator() {
    return this.emulatorRunning ? this.emulator() : undefined;
  }
  async openFile(format: TransferFormat) {
    return { path: `/tmp/in.${format}`, text: this.importText[format] };
  }
  async saveTarget(_format: TransferFormat, name: string) {
    return `/tmp/${name}`;
  }
  async writeFile(target: string, text: string) {
    this.saved.push({ name: target.replace(/^\/tmp\//, ""), text });
  }
  /** The folder the next `chooseFolder` answers (undefined: a new one under the temporary folder); null: the dialog is dismissed. */
  folder: string | null | undefined;
  /** The folders this UI made (export folders, the job logs' folder): a test removes them when it ends. */
  readonly made: string[] = [];
  private logs: string | undefined;
  async chooseFolder(_title: string, name: string) {
    if (this.folder === null) return undefined;
    if (this.folder) return this.folder;
    const dir = mkdtempSync(path.join(tmpdir(), `${name}-`));
    this.made.push(dir);
    return dir;
  }
  async jobLog(name: string) {
    if (!this.logs) {
      this.logs = mkdtempSync(path.join(tmpdir(), "tdl-explorer-logs-"));
      this.made.push(this.logs);
    }
    return path.join(this.logs, name);
  }
  async withProgress<T>(_title: string, work: (report: (done: number, total?: number) => void, signal: AbortSignal) => Promise<T>) {
    return work(() => undefined, new AbortController().signal);
  }
}
