/**
 * What a message may show of an endpoint: its host only — never a key, a
 * token or a query string. Shared by the stress runs, the bulk jobs and the
 * export, which all name the endpoint they failed at.
 */

/** The host of an endpoint: what messages may show of it. */
export function endpointHost(endpoint: string): string {
  try {
    return new URL(endpoint).host || "the endpoint";
  } catch {
    return "the endpoint";
  }
}
