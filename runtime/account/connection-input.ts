/**
 * Whatever a user pastes to connect — a connection string, an account URL,
 * a SAS URL, an account URL followed by a separate token — becomes a
 * connection whose shown and stored part (`ConnectionInfo`) holds no secret
 * and whose secret part goes to secret storage. Also cleans connections
 * stored by older versions, which kept a pasted SAS URL verbatim.
 */
import type { Secret } from "./secret";
import { parseConnectionString } from "./connection-string";
import { readEndpoint } from "./endpoint";
import { ConnectionStringError } from "./errors";
import { ConnectionInfo, ConnectionKind } from "@protocol/entities";
import { parseSas, sasTime, sasTimeProblem, sasToken, splitSasUrl } from "./sas";

/** A connection read from pasted text: its shown part and its secret part. */
export interface ConnectionInput {
  kind: Exclude<ConnectionKind, "emulator">;
  /** protocol://host[:port][/account]: no query, safe to store and show. */
  endpoint: string;
  /** A name to suggest for the connection. */
  accountName: string;
  secret: Secret;
}

/**
 * Reads pasted text. A URL with a SAS becomes a "sas" connection, a URL
 * without one keeps `urlKind` (the user chose SAS or Entra ID), anything else
 * must be a connection string. Throws ConnectionStringError.
 */
export function interpretConnectionInput(text: string, urlKind: "sas" | "entra-id" = "entra-id"): ConnectionInput {
  const trimmed = text.trim().replace(/^["']|["']$/g, "");
  if (/^https?:\/\//i.test(trimmed)) {
    const ep = readEndpoint(trimmed, "the table endpoint");
    const accountName = ep.endpoint.split("/")[3] || ep.hostname.split(".")[0];
    return ep.sas
      ? { kind: "sas", endpoint: ep.endpoint, accountName, secret: { sasToken: ep.sas } }
      : { kind: urlKind, endpoint: ep.endpoint, accountName, secret: {} };
  }
  const parsed = parseConnectionString(trimmed);
  return { kind: "connection-string", endpoint: parsed.endpoint, accountName: parsed.accountName, secret: { connectionString: trimmed } };
}

/**
 * Reads a SAS token typed on its own (with or without `?`, or as a whole SAS
 * URL). Throws when it has no signature or cannot work at `now`.
 */
export function readSasToken(text: string, now = new Date()): string {
  const token = sasToken(text);
  if (!token)
    throw new ConnectionStringError(
      "this is not a SAS token (it has no sig parameter): copy the whole token, from sv= to the end of its signature",
    );
  const problem = sasTimeProblem(parseSas(token)!, now);
  if (problem) throw new ConnectionStringError(problem.message);
  return token;
}

/** When a SAS token stops working, for a notification ("valid until …"); undefined without `se`. */
export function sasExpiry(token: string): string | undefined {
  const expires = parseSas(token)?.expiresOn;
  return expires && sasTime(expires);
}

/**
 * A stored connection without a secret in its endpoint: the query, user
 * info and fragment are dropped; a SAS found there is returned so that the
 * caller can move it into secret storage.
 */
export function cleanConnection(info: ConnectionInfo): { info: ConnectionInfo; sas?: string } {
  if (!/[?#@]/.test(info.endpoint)) return { info };
  const split = splitSasUrl(info.endpoint);
  if (!split) return { info: { ...info, endpoint: info.endpoint.replace(/[?#].*$/s, "") } };
  const withoutUser = split.endpoint.replace(/\/\/[^/@]*@/, "//");
  return { info: { ...info, endpoint: withoutUser }, sas: split.sas };
}
