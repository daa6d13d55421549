/**
 * The sampler's pages from a live table through an `AccountSession`: its
 * time bound, error messages and SAS checks, with the caller's signal
 * cancelling a request in flight. Entities arrive with their Edm types, which
 * the inference needs.
 */
import type { AccountSession } from "../account/session";
import type { PageReader } from "./sample";

export function sessionReader(session: AccountSession, table: string): PageReader {
  return { page: (q, signal) => session.page(table, { ...q, signal }) };
}
