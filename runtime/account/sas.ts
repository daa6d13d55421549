/**
 * Shared access signatures: finding one in pasted text, splitting it from
 * a URL, and reading what it allows (times, permissions, resource types) so
 * that an expired token or a missing permission gets its own message. The
 * signature itself is never returned in anything meant for display.
 */

/** What a SAS token says about itself. None of these fields is secret; `sig` is kept out. */
export interface SasInfo {
  /** `se`: the token is invalid from this time on. */
  expiresOn?: Date;
  /** `st`: the token is invalid before this time. */
  startsOn?: Date;
  /** `sp`: permission letters (r a u d for a table SAS; r w d l a c u p for an account SAS). */
  permissions: string;
  /** `srt`: resource types of an account SAS (s service, c container = table, o object = entity). */
  resourceTypes?: string;
  /** `ss`: services of an account SAS (t = Table). */
  services?: string;
  /** `tn`: the one table a table SAS is for. */
  table?: string;
}

/** True when `query` (with or without `?`) carries a SAS signature. */
export function hasSignature(query: string): boolean {
  return /(?:^|[?&])sig=/i.test(query);
}

/** Reads a SAS token (`sv=…&sig=…`, with or without a leading `?`). Undefined when it has no `sig`. */
export function parseSas(token: string): SasInfo | undefined {
  const params = new URLSearchParams(token.trim().replace(/^\?/, ""));
  if (!params.get("sig")) return undefined;
  return {
    expiresOn: sasDate(params.get("se")),
    startsOn: sasDate(params.get("st")),
    permissions: params.get("sp") ?? "",
    resourceTypes: params.get("srt") ?? undefined,
    services: params.get("ss") ?? undefined,
    table: params.get("tn") ?? undefined,
  };
}

function sasDate(value: string | null): Date | undefined {
  if (!value) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : new Date(ms);
}

/**
 * Splits a pasted URL into the address (without query, user info or
 * fragment) and the SAS token of its query, if the query carries one.
 * Undefined when `text` is not an http(s) URL.
 */
export function splitSasUrl(text: string): { endpoint: string; sas?: string } | undefined {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return undefined;
  const query = url.search.replace(/^\?/, "");
  const endpoint = `${url.protocol}//${url.host}${url.pathname}`.replace(/\/+$/, "");
  return { endpoint, sas: hasSignature(query) ? query : undefined };
}

/** The token of a SAS typed on its own, pasted with `?`, or pasted as a whole SAS URL; undefined without `sig`. */
export function sasToken(text: string): string | undefined {
  const trimmed = text.trim();
  const fromUrl = /^https?:\/\//i.test(trimmed) ? splitSasUrl(trimmed)?.sas : trimmed.replace(/^\?/, "");
  return fromUrl && hasSignature(fromUrl) ? fromUrl : undefined;
}

/** Formats a SAS time the way the portal shows it: ISO 8601 in UTC, to the second. */
export function sasTime(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, "Z");
}

/**
 * The reason a token cannot work at `now`, or undefined. `skewMs` widens the
 * window for checks made before a call (the service's clock, not ours, decides).
 */
export function sasTimeProblem(
  sas: SasInfo,
  now: Date,
  skewMs = 0,
): { code: "SasExpired" | "SasNotYetValid"; message: string } | undefined {
  if (sas.expiresOn && sas.expiresOn.getTime() <= now.getTime() - skewMs) {
    return {
      code: "SasExpired",
      message: `the SAS token expired on ${sasTime(sas.expiresOn)}: create a new one (in the portal under Shared access signature, or with az storage account generate-sas)`,
    };
  }
  if (sas.startsOn && sas.startsOn.getTime() > now.getTime() + skewMs) {
    return {
      code: "SasNotYetValid",
      message: `the SAS token is not valid before ${sasTime(sas.startsOn)}: wait until then, or create a token whose start time (st) is in the past`,
    };
  }
  return undefined;
}
