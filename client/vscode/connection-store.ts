/**
 * Connections in VS Code: names, endpoints and kinds in global state;
 * connection strings and SAS tokens in SecretStorage only. An endpoint is
 * stored and listed without its query: a SAS pasted into it (or stored so by
 * an older version) is moved into SecretStorage, never shown.
 */
import type { ExtensionContext } from "vscode";
import { ConnectionStore } from "../explorer/controller";
import { cleanConnection, type Secret } from "@runtime";
import { ConnectionInfo } from "@protocol";

const KEY = "tableDesign.connections";

export class VsCodeConnectionStore implements ConnectionStore {
  /** Set once the stored list has been checked for secrets in endpoints (older versions kept them). */
  private migration: Promise<void> | undefined;

  constructor(private readonly context: ExtensionContext) {}

  /** The stored connections, each endpoint without a query (what the webview and notifications get). */
  list(): ConnectionInfo[] {
    const stored = this.stored();
    // The list is always shown clean; rewriting the stored copy is asynchronous (secret storage is).
    if (!this.migration && stored.some((c) => cleanConnection(c).info !== c)) this.migration = this.migrate().catch(() => undefined);
    return stored.map((c) => cleanConnection(c).info);
  }

  async save(info: ConnectionInfo, secret: Secret): Promise<void> {
    await this.ready();
    const { info: clean, sas } = cleanConnection(info);
    const kept =
      sas && !secret.sasToken && !secret.connectionString
        ? { kind: "sas" as const, secret: { sasToken: sas } }
        : { kind: clean.kind, secret };
    const list = this.stored().filter((c) => c.id !== info.id);
    await this.context.globalState.update(KEY, [...list, { ...clean, kind: kept.kind }]);
    if (kept.secret.connectionString || kept.secret.sasToken)
      await this.context.secrets.store(`${KEY}.${info.id}`, JSON.stringify(kept.secret));
  }

  async secret(id: string): Promise<Secret | undefined> {
    await this.ready();
    return parseSecret(await this.context.secrets.get(`${KEY}.${id}`));
  }

  async remove(id: string): Promise<void> {
    await this.ready();
    await this.context.globalState.update(
      KEY,
      this.stored().filter((c) => c.id !== id),
    );
    await this.context.secrets.delete(`${KEY}.${id}`);
  }

  lastUsed(): string | undefined {
    return this.context.globalState.get<string>(`${KEY}.lastUsed`);
  }

  async markUsed(id: string): Promise<void> {
    await this.context.globalState.update(`${KEY}.lastUsed`, id);
  }

  /** Waits for the one-time clean-up of endpoints stored with a secret. */
  ready(): Promise<void> {
    this.list();
    return this.migration ?? Promise.resolve();
  }

  private stored(): ConnectionInfo[] {
    return this.context.globalState.get<ConnectionInfo[]>(KEY, []);
  }

  /**
   * Rewrites global state without queries in endpoints. A SAS found there
   * becomes the connection's secret when it has none (the connection is then
   * a SAS connection); otherwise it is dropped, the stored secret prevailing.
   */
  private async migrate(): Promise<void> {
    const cleaned: ConnectionInfo[] = [];
    for (const c of this.stored()) {
      const { info, sas } = cleanConnection(c);
      if (sas) {
        const existing = parseSecret(await this.context.secrets.get(`${KEY}.${c.id}`)) ?? {};
        if (!existing.sasToken && !existing.connectionString) {
          await this.context.secrets.store(`${KEY}.${c.id}`, JSON.stringify({ sasToken: sas }));
          cleaned.push({ ...info, kind: "sas" });
          continue;
        }
      }
      cleaned.push(info);
    }
    await this.context.globalState.update(KEY, cleaned);
  }
}

function parseSecret(raw: string | undefined): Secret | undefined {
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as Secret;
  } catch {
    return undefined;
  }
}
