/**
 * Parses Azure Storage and Cosmos DB for Table connection strings, with a
 * clear message for each thing that can be wrong. Secrets stay in the
 * returned value only: a message names the setting and the position of its
 * segment ("AccountKey (segment 3)"), never a value, and names an unknown
 * setting only when it cannot be a piece of a key (see `settingName`).
 */
import { ConnectionStringError } from "./errors";
import { readEndpoint, validHost } from "./endpoint";
import { isLoopbackHost } from "./loopback";
import { sasToken } from "./sas";
import { readSegments, Setting } from "./connection-segments";

export { ConnectionStringError } from "./errors";

/** Azurite's well-known development account (public, documented by Microsoft). */
export const DEV_ACCOUNT = "devstoreaccount1";
/** Azurite's well-known development key (public, documented by Microsoft; not a secret). */
export const DEV_KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

export interface ParsedConnectionString {
  /** protocol://host[:port][/account], without a query: safe to store and show. */
  endpoint: string;
  accountName: string;
  accountKey?: string;
  /** The SAS token (without `?`), from SharedAccessSignature or from TableEndpoint's query. */
  sas?: string;
  emulator: boolean;
}

/** Reads a connection string; throws ConnectionStringError naming what is wrong and where. */
export function parseConnectionString(input: string): ParsedConnectionString {
  const text = unquote(input.trim());
  if (!text) throw new ConnectionStringError("the connection string is empty");
  if (/^https?:\/\//i.test(text)) {
    throw new ConnectionStringError(
      "this is a URL, not a connection string: connect with 'Account URL and SAS token' (or put the URL in TableEndpoint=…)",
    );
  }
  const fields = readSegments(text);
  if (!fields.size) throw new ConnectionStringError("the connection string is empty (it holds only separators)");
  const label = (name: Setting) => `${name} (segment ${fields.get(name)!.position})`;
  const value = (name: Setting) => fields.get(name)?.value;

  if (value("UseDevelopmentStorage")?.toLowerCase() === "true") {
    let base = "http://127.0.0.1";
    if (fields.has("DevelopmentStorageProxyUri")) {
      const proxy = readEndpoint(value("DevelopmentStorageProxyUri")!, label("DevelopmentStorageProxyUri"));
      base = proxy.endpoint.replace(/:\d+$/, "");
    }
    return { endpoint: `${base}:10002/${DEV_ACCOUNT}`, accountName: DEV_ACCOUNT, accountKey: DEV_KEY, emulator: true };
  }

  const accountName = value("AccountName");
  if (accountName !== undefined && !/^[A-Za-z0-9-]{1,63}$/.test(accountName)) {
    throw new ConnectionStringError(`${label("AccountName")} may hold only letters, digits and hyphens`);
  }
  const accountKey = value("AccountKey");
  if (accountKey !== undefined) checkKey(accountKey, label("AccountKey"));
  let sas: string | undefined;
  if (fields.has("SharedAccessSignature")) {
    sas = sasToken(value("SharedAccessSignature")!);
    if (!sas)
      throw new ConnectionStringError(
        `${label("SharedAccessSignature")} has no signature (its sig parameter): copy the whole SAS token again`,
      );
  }

  let endpointText = value("TableEndpoint");
  if (endpointText === undefined) {
    if (!accountName)
      throw new ConnectionStringError(
        "the connection string has neither TableEndpoint nor AccountName: add AccountName=… (and EndpointSuffix), or TableEndpoint=https://…",
      );
    const protocol = (value("DefaultEndpointsProtocol") ?? "https").toLowerCase();
    if (protocol !== "https" && protocol !== "http")
      throw new ConnectionStringError(`${label("DefaultEndpointsProtocol")} must be https or http`);
    const suffix = (value("EndpointSuffix") ?? "core.windows.net").toLowerCase();
    if (!validHost(suffix)) throw new ConnectionStringError(`${label("EndpointSuffix")} is not a domain such as core.windows.net`);
    endpointText = `${protocol}://${accountName.toLowerCase()}.table.${suffix}`;
  }
  const endpoint = readEndpoint(
    endpointText,
    fields.has("TableEndpoint") ? label("TableEndpoint") : "the table endpoint built from AccountName and EndpointSuffix",
  );
  if (endpoint.table)
    throw new ConnectionStringError(`${label("TableEndpoint")} names a table: TableEndpoint is the account's address, without a table`);
  if (endpoint.sas) {
    if (sas && sas !== endpoint.sas)
      throw new ConnectionStringError(`both ${label("TableEndpoint")} and ${label("SharedAccessSignature")} carry a SAS token: keep one`);
    sas = endpoint.sas;
  }
  if (!accountKey && !sas)
    throw new ConnectionStringError("the connection string has no AccountKey and no SharedAccessSignature: add one of them");
  const name = accountName ?? (endpoint.endpoint.split("/")[3] || endpoint.hostname.split(".")[0]);
  if (accountKey && !name) throw new ConnectionStringError("AccountName is missing: a key needs the account's name");
  return { endpoint: endpoint.endpoint, accountName: name, accountKey, sas, emulator: isLoopbackHost(endpoint.hostname) };
}

/** Base64, complete: the position of the first bad character is named, never a character of the key. */
function checkKey(key: string, label: string): void {
  const bad = key.search(/[^A-Za-z0-9+/=]/);
  if (bad >= 0) {
    const what = /\s/.test(key[bad]) ? "a space or line break" : "not a base64 character";
    throw new ConnectionStringError(
      `${label} is not base64: its character ${bad + 1} is ${what}; copy the key again from the portal (Access keys)`,
    );
  }
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(key) || key.length % 4 !== 0) {
    throw new ConnectionStringError(
      `${label} is not complete base64 (${key.length} characters, padding misplaced or missing): copy the whole key again from the portal (Access keys)`,
    );
  }
}

function unquote(text: string): string {
  const q = text[0];
  return text.length >= 2 && (q === '"' || q === "'") && text.endsWith(q) ? text.slice(1, -1).trim() : text;
}

/** Whether a host is this machine; see `isLoopbackHost` (kept here for existing callers). */
export function isLoopback(host: string): boolean {
  return isLoopbackHost(host);
}

/** The connection string of an emulator at `endpoint` with the development account. */
export function emulatorConnectionString(endpoint: string): string {
  return `DefaultEndpointsProtocol=http;AccountName=${DEV_ACCOUNT};AccountKey=${DEV_KEY};TableEndpoint=${endpoint};`;
}
