/** Test doubles for the host's UI and storage (the account and the controller are real). */
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

  async confirm(message: string) {
    this.confirmations.push(message);
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
  async withProgress<T>(_title: string, work: (report: (done: number, total?: number) => void, signal: AbortSignal) => Promise<T>) {
    return work(() => undefined, new AbortController().signal);
  }
}
