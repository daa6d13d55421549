/**
 * The sampler's pages from a live table through an `AccountSession`: its
 * time bound, error messages and SAS checks, with the caller's signal
 * cancelling a request in flight. Entities arrive with their Edm types
 * (`disableTypeConversion`), which the inference needs.
 */
import type { AccountSession } from "../account/explorer";
import { toRow } from "../account/values";
import type { PageReader } from "./sample";

export function sessionReader(session: AccountSession, table: string): PageReader {
  return {
    page: (q, signal) =>
      session.call(async (abortSignal) => {
        const it = session.clients
          .table(table)
          .listEntities<Record<string, unknown>>({
            abortSignal,
            disableTypeConversion: true,
            queryOptions: { filter: q.filter || undefined, select: q.select?.length ? q.select : undefined },
          })
          .byPage({ maxPageSize: q.pageSize, continuationToken: q.continuationToken });
        const { value } = await it.next();
        const page = (value ?? []) as Array<Record<string, unknown>> & { continuationToken?: string };
        return { entities: page.map((e) => toRow(e as never)), continuationToken: page.continuationToken };
      }, signal),
  };
}
