/**
 * Reads a table endpoint typed or pasted by a user (the endpoint box, a
 * connection string's TableEndpoint): an http(s) address with a valid host
 * and at most an account segment in its path. A SAS in its query is split
 * off (it is a secret); anything else in the query, user info or a fragment
 * is refused. Messages name the field, never quote what was typed.
 */
import { ConnectionStringError } from "./errors";
import { hasSignature } from "./sas";

/** A table endpoint as read from user input. */
export interface Endpoint {
  /** protocol://host[:port][/account], without query or trailing slash: what may be stored and shown. */
  endpoint: string;
  /** The URL's host name as the URL parser reads it (IPv6 in brackets). */
  hostname: string;
  /** The SAS token from the query, without `?`. */
  sas?: string;
  /** A table named after the account address (a table SAS URL from the portal): not part of the endpoint. */
  table?: string;
}

const EXAMPLE = "https://myaccount.table.core.windows.net (or http://127.0.0.1:10002/devstoreaccount1 for an emulator)";

/** `label` names the field in messages, e.g. "TableEndpoint (segment 4)" or "the table endpoint". */
export function readEndpoint(text: string, label: string): Endpoint {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new ConnectionStringError(`${label} is not a URL such as ${EXAMPLE}`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new ConnectionStringError(`${label} must use https (or http for an emulator), like ${EXAMPLE}`);
  if (url.username || url.password)
    throw new ConnectionStringError(
      `${label} must not hold a user name or password: credentials go in AccountKey or SharedAccessSignature`,
    );
  if (url.hash) throw new ConnectionStringError(`${label} must not have a #fragment`);
  if (!validHost(url.hostname)) throw new ConnectionStringError(`${label} does not have a valid host name, like ${EXAMPLE}`);
  // Path-style addresses (an emulator on an IP or localhost) name the account first; Azure's own hosts carry it in the name.
  const pathStyle = url.hostname === "localhost" || url.hostname.startsWith("[") || /^[\d.]+$/.test(url.hostname);
  const segments = url.pathname.split("/").filter(Boolean);
  const account = pathStyle ? segments[0] : undefined;
  const table = segments[pathStyle ? 1 : 0];
  if (
    segments.length > (pathStyle ? 2 : 1) ||
    (account !== undefined && !/^[A-Za-z0-9-]{1,63}$/.test(account)) ||
    (table !== undefined && !/^[A-Za-z][A-Za-z0-9]{2,62}$/.test(table))
  ) {
    throw new ConnectionStringError(`${label} must be the table service's address only, like ${EXAMPLE}`);
  }
  const query = url.search.replace(/^\?/, "");
  if (query && !hasSignature(query))
    throw new ConnectionStringError(`${label} has a query string that is not a SAS token: remove the part from '?' on`);
  return {
    endpoint: `${url.protocol}//${url.host}${account ? `/${account}` : ""}`,
    hostname: url.hostname,
    sas: query || undefined,
    table,
  };
}

/** A DNS name (labels of letters, digits, '-' or '_'), an IPv4 literal or a bracketed IPv6 literal, as the URL parser leaves them. */
export function validHost(hostname: string): boolean {
  if (hostname.startsWith("[")) return hostname.endsWith("]");
  if (!hostname || hostname.length > 253) return false;
  return hostname
    .replace(/\.$/, "")
    .split(".")
    .every((label) => /^[a-z0-9_-]{1,63}$/.test(label));
}
