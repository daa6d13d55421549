/**
 * Connections in VS Code: names, endpoints and kinds in global state;
 * connection strings and SAS tokens in SecretStorage only.
 */
import type { ExtensionContext } from "vscode";
import { ConnectionStore } from "../panel/explorer-controller";
import { ConnectionInfo } from "../account/model";
import { Secret } from "../account/clients";

const KEY = "tableDesign.connections";

export class VsCodeConnectionStore implements ConnectionStore {
  constructor(private readonly context: ExtensionContext) {}

  list(): ConnectionInfo[] {
    return this.context.globalState.get<ConnectionInfo[]>(KEY, []);
  }

  async save(info: ConnectionInfo, secret: Secret): Promise<void> {
    const list = this.list().filter((c) => c.id !== info.id);
    await this.context.globalState.update(KEY, [...list, info]);
    if (secret.connectionString || secret.sasToken) await this.context.secrets.store(`${KEY}.${info.id}`, JSON.stringify(secret));
  }

  async secret(id: string): Promise<Secret | undefined> {
    const raw = await this.context.secrets.get(`${KEY}.${id}`);
    return raw ? (JSON.parse(raw) as Secret) : undefined;
  }

  async remove(id: string): Promise<void> {
    await this.context.globalState.update(KEY, this.list().filter((c) => c.id !== id));
    await this.context.secrets.delete(`${KEY}.${id}`);
  }
}
