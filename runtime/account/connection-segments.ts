/**
 * Splits a connection string into its `Name=value` segments and says, for a
 * segment that is not one, what it looks like instead (a setting with a space
 * for '=', a bare key, a bare SAS token, a URL) — naming the setting and the
 * segment's position, never quoting what could be a piece of a secret.
 */
import { ConnectionStringError } from "./errors";
import { hasSignature } from "./sas";

/** The settings a table connection string may hold (names match case-insensitively). */
export const SETTINGS = [
  "DefaultEndpointsProtocol",
  "AccountName",
  "AccountKey",
  "TableEndpoint",
  "EndpointSuffix",
  "SharedAccessSignature",
  "UseDevelopmentStorage",
  "DevelopmentStorageProxyUri",
  "BlobEndpoint",
  "QueueEndpoint",
  "FileEndpoint",
] as const;
export type Setting = (typeof SETTINGS)[number];

const CANONICAL = new Map<string, Setting>(SETTINGS.map((s) => [s.toLowerCase(), s]));

/** Settings of other services' connection strings, with what to use instead. */
const FOREIGN: Record<string, string> = {
  accountendpoint: "it belongs to a Cosmos DB for NoSQL connection string: copy the account's Table API connection string instead",
  endpoint: "it belongs to a Service Bus or Event Hubs connection string, not a table account's",
  sharedaccesskeyname: "it belongs to a Service Bus or Event Hubs connection string, not a table account's",
  sharedaccesskey: "it belongs to a Service Bus or Event Hubs connection string, not a table account's",
  entitypath: "it belongs to a Service Bus or Event Hubs connection string, not a table account's",
};

const SHAPE = "a connection string looks like DefaultEndpointsProtocol=https;AccountName=…;AccountKey=…;EndpointSuffix=core.windows.net";

/** One setting's value and where it was. */
export interface Field {
  value: string;
  /** 1-based position among the non-empty segments, as the user counts them. */
  position: number;
}

/** The settings of `text` (split at `;` and line breaks), by canonical name; throws on the first segment that is not one. */
export function readSegments(text: string): Map<Setting, Field> {
  const fields = new Map<Setting, Field>();
  const segments = text
    .split(/[;\r\n]/)
    .map((s) => s.trim())
    .filter(Boolean);
  segments.forEach((segment, i) => {
    const position = i + 1;
    const eq = segment.indexOf("=");
    const name = eq > 0 ? CANONICAL.get(segment.slice(0, eq).trim().toLowerCase()) : undefined;
    if (!name) throw new ConnectionStringError(notASetting(segment, eq, position));
    const value = segment.slice(eq + 1).trim();
    if (!value) throw new ConnectionStringError(`${name} (segment ${position}) has no value: write ${name}=…`);
    const before = fields.get(name);
    if (before && before.value !== value) {
      throw new ConnectionStringError(`${name} is set twice with different values (segments ${before.position} and ${position}): keep one`);
    }
    fields.set(name, { value, position });
  });
  return fields;
}

/** The message for a segment that is not a known `Name=value` setting. */
function notASetting(segment: string, eq: number, position: number): string {
  const at = `segment ${position}`;
  const head = /^[A-Za-z]+/.exec(segment)?.[0] ?? "";
  const known = CANONICAL.get(head.toLowerCase());
  if (known && head.length === segment.length) return `${known} (${at}) has no value: write ${known}=…`;
  if (known && /^[\s:]/.test(segment.slice(head.length)))
    return `${known} (${at}) needs '=' between the name and the value: write ${known}=…, not a space or a colon`;
  if (hasSignature(segment) || /^\??sv=/i.test(segment))
    return `${at} looks like a SAS token without its name: put SharedAccessSignature= before it`;
  if (/^[A-Za-z0-9+/]{20,}={0,2}$/.test(segment)) return `${at} looks like an account key without its name: write AccountKey=…`;
  if (/^https?:\/\//i.test(segment)) return `${at} is a URL without a setting name: write TableEndpoint=https://…`;
  const name = eq > 0 ? segment.slice(0, eq).trim() : "";
  const foreign = FOREIGN[name.toLowerCase()];
  if (foreign) return `${at} holds the setting '${name}', which this connection string cannot use: ${foreign}`;
  const near = nearestSetting(name);
  if (near) return `unknown setting '${name}' in ${at}: did you mean ${near}?`;
  if (settingName(name)) return `unknown setting '${name}' in ${at}: ${SHAPE}`;
  return `${at} is not a Name=value setting: ${SHAPE}`;
}

/**
 * A name short enough to quote: letters only and at most 7 of them, so that
 * no quoted name can hold an 8-character piece of a key or token (a split key
 * can put any piece before an '='). Longer names are quoted only as near
 * misses of a real setting (`nearestSetting`).
 */
function settingName(name: string): boolean {
  return /^[A-Za-z]{1,7}$/.test(name);
}

/** The setting `name` is a typo of (at most 2 edits, ignoring case), or undefined. */
function nearestSetting(name: string): Setting | undefined {
  if (name.length < 4 || name.length > 30 || !/^[A-Za-z]+$/.test(name)) return undefined;
  const lower = name.toLowerCase();
  for (const s of SETTINGS) if (editDistance(lower, s.toLowerCase(), 2) <= 2) return s;
  return undefined;
}

/** Levenshtein distance, stopping early once every path exceeds `limit` (inputs are at most 30 characters). */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    if (Math.min(...row) > limit) return limit + 1;
    prev = row;
  }
  return prev[b.length];
}
