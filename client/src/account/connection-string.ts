/**
 * Parses Azure Storage and Cosmos DB for Table connection strings, with a
 * clear message for each thing that can be wrong. Secrets stay in the
 * returned value only; errors never quote them.
 */

/** Azurite's well-known development account (public, documented by Microsoft). */
export const DEV_ACCOUNT = "devstoreaccount1";
export const DEV_KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

export interface ParsedConnectionString {
  endpoint: string;
  accountName: string;
  accountKey?: string;
  sas?: string;
  emulator: boolean;
}

export class ConnectionStringError extends Error {}

const KNOWN = new Set(["DefaultEndpointsProtocol", "AccountName", "AccountKey", "TableEndpoint", "EndpointSuffix", "SharedAccessSignature",
  "UseDevelopmentStorage", "DevelopmentStorageProxyUri", "BlobEndpoint", "QueueEndpoint", "FileEndpoint"]);

export function parseConnectionString(input: string): ParsedConnectionString {
  const text = input.trim();
  if (!text) throw new ConnectionStringError("the connection string is empty");
  const fields = new Map<string, string>();
  for (const part of text.split(";").filter((p) => p.trim())) {
    const eq = part.indexOf("=");
    if (eq <= 0) throw new ConnectionStringError(`'${part.slice(0, 20)}${part.length > 20 ? "…" : ""}' is not a Name=value pair: a connection string looks like DefaultEndpointsProtocol=https;AccountName=…;AccountKey=…;EndpointSuffix=core.windows.net`);
    const name = part.slice(0, eq).trim();
    if (!KNOWN.has(name)) throw new ConnectionStringError(`unknown setting '${name}' in the connection string`);
    fields.set(name, part.slice(eq + 1).trim());
  }
  if (fields.get("UseDevelopmentStorage")?.toLowerCase() === "true") {
    const proxy = fields.get("DevelopmentStorageProxyUri");
    const base = proxy ? proxy.replace(/\/$/, "") : "http://127.0.0.1";
    return { endpoint: `${base}:10002/${DEV_ACCOUNT}`, accountName: DEV_ACCOUNT, accountKey: DEV_KEY, emulator: true };
  }
  const accountName = fields.get("AccountName");
  const accountKey = fields.get("AccountKey");
  const sas = fields.get("SharedAccessSignature");
  let endpoint = fields.get("TableEndpoint");
  if (!endpoint) {
    if (!accountName) throw new ConnectionStringError("the connection string has neither TableEndpoint nor AccountName: add AccountName=… (and EndpointSuffix), or TableEndpoint=https://…");
    const protocol = fields.get("DefaultEndpointsProtocol") ?? "https";
    if (protocol !== "https" && protocol !== "http") throw new ConnectionStringError(`DefaultEndpointsProtocol must be https or http, not '${protocol}'`);
    endpoint = `${protocol}://${accountName}.table.${fields.get("EndpointSuffix") ?? "core.windows.net"}`;
  }
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new ConnectionStringError(`TableEndpoint '${endpoint}' is not a URL such as https://myaccount.table.core.windows.net`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new ConnectionStringError(`TableEndpoint must use https (or http for an emulator), not '${url.protocol}'`);
  if (!accountKey && !sas) throw new ConnectionStringError("the connection string has no AccountKey and no SharedAccessSignature: add one of them");
  if (accountKey && !/^[A-Za-z0-9+/]+={0,2}$/.test(accountKey)) throw new ConnectionStringError("AccountKey is not base64: copy the key again from the portal (Access keys)");
  const name = accountName ?? url.pathname.split("/").filter(Boolean)[0] ?? url.hostname.split(".")[0];
  if (accountKey && !name) throw new ConnectionStringError("AccountName is missing: a key needs the account's name");
  return { endpoint: endpoint.replace(/\/$/, ""), accountName: name, accountKey, sas, emulator: isLoopback(url.hostname) };
}

export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" || /^127\./.test(host);
}

export function emulatorConnectionString(endpoint: string): string {
  return `DefaultEndpointsProtocol=http;AccountName=${DEV_ACCOUNT};AccountKey=${DEV_KEY};TableEndpoint=${endpoint};`;
}
