/**
 * Builds `@azure/data-tables` clients for a connection: the embedded
 * emulator or a connection string (shared key or SAS), an account URL with
 * a SAS token, or an account URL with Microsoft Entra ID.
 */
import {
  AzureNamedKeyCredential,
  AzureSASCredential,
  TableClient,
  TableServiceClient,
  TableServiceClientOptions,
} from "@azure/data-tables";
import { ConnectionInfo } from "@protocol/entities";
import { parseConnectionString } from "./connection-string";
import { cleanConnection } from "./connection-input";
import { AccountError } from "./errors";
import { parseSas, SasInfo, sasToken } from "./sas";
import type { Secret } from "./secret";

export interface ClientPair {
  service: TableServiceClient;
  table(name: string): TableClient;
}

const OPTIONS: TableServiceClientOptions = { retryOptions: { maxRetries: 1, retryDelayInMs: 200, maxRetryDelayInMs: 1000 } };

/** `extra` overrides the defaults (the stress test turns the SDK's retries off). */
export function makeClients(conn: ConnectionInfo, secret: Secret, extra: TableServiceClientOptions = {}): ClientPair {
  const insecure = conn.endpoint.startsWith("http:");
  const opts: TableServiceClientOptions = { ...OPTIONS, ...extra, allowInsecureConnection: insecure };
  switch (conn.kind) {
    case "emulator":
    case "connection-string": {
      if (!secret.connectionString) throw new AccountError("this connection has no stored connection string: connect again", "NoSecret");
      const parsed = parseConnectionString(secret.connectionString);
      const o = { ...opts, allowInsecureConnection: parsed.endpoint.startsWith("http:") };
      if (parsed.accountKey) {
        const key = new AzureNamedKeyCredential(parsed.accountName, parsed.accountKey);
        return pair(new TableServiceClient(parsed.endpoint, key, o), (t) => new TableClient(parsed.endpoint, t, key, o));
      }
      const sas = new AzureSASCredential(parsed.sas!);
      return pair(new TableServiceClient(parsed.endpoint, sas, o), (t) => new TableClient(parsed.endpoint, t, sas, o));
    }
    case "sas": {
      const token = secret.sasToken && sasToken(secret.sasToken);
      if (!token) throw new AccountError("this connection has no stored SAS token: connect again", "NoSecret");
      const cred = new AzureSASCredential(token);
      const endpoint = cleanConnection(conn).info.endpoint;
      return pair(new TableServiceClient(endpoint, cred, opts), (t) => new TableClient(endpoint, t, cred, opts));
    }
    case "entra-id": {
      // Loaded on demand: @azure/identity is large and only this kind needs it.
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load, kept out of the bundle
      const { DefaultAzureCredential } = require("@azure/identity") as typeof import("@azure/identity");
      const cred = new DefaultAzureCredential();
      const endpoint = cleanConnection(conn).info.endpoint;
      return pair(new TableServiceClient(endpoint, cred, opts), (t) => new TableClient(endpoint, t, cred, opts));
    }
  }
}

/** How a connection signs its requests: with a key (a 403 means a wrong key), with a SAS (whose times and grants can be checked), or otherwise. */
export function credentialOf(conn: ConnectionInfo, secret: Secret): { sharedKey: boolean; sas?: SasInfo } {
  if (conn.kind === "sas") {
    const token = secret.sasToken && sasToken(secret.sasToken);
    return { sharedKey: false, sas: token ? parseSas(token) : undefined };
  }
  if ((conn.kind === "connection-string" || conn.kind === "emulator") && secret.connectionString) {
    try {
      const parsed = parseConnectionString(secret.connectionString);
      return { sharedKey: !!parsed.accountKey, sas: parsed.accountKey || !parsed.sas ? undefined : parseSas(parsed.sas) };
    } catch {
      return { sharedKey: false };
    }
  }
  return { sharedKey: false };
}

function pair(service: TableServiceClient, table: (name: string) => TableClient): ClientPair {
  const cache = new Map<string, TableClient>();
  return {
    service,
    table: (name) => {
      let c = cache.get(name);
      if (!c) cache.set(name, (c = table(name)));
      return c;
    },
  };
}
