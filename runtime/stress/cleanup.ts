/**
 * Finding and removing leftover stress tables: `tdl stress --cleanup` and
 * the command "Remove Leftover Stress Tables". A `stress…` table is removed
 * only when it carries this tool's marker, is older than asked, and no run
 * that is still alive (in this process, or a live process on this host)
 * owns it. Everything else is listed with the reason it is kept.
 */
import { hostname } from "node:os";
import { ClientPair } from "../account/clients";
import { toAccountError } from "../account/errors";
import { withDeadline } from "../net/deadline";
import { deleteWithBackoff } from "./lifecycle";
import { activeTables, MARKER_PARTITION, MARKER_ROW, MarkerInfo, parseMarker, STRESS_PREFIX } from "./marker";
import { ErrorLike, errorCode } from "../net/retry";
import { InputError } from "@core/errors";

export interface LeftoverTable {
  table: string;
  marker?: MarkerInfo;
  /** Why it is kept; undefined when it is to be removed. */
  keep?: string;
}

export interface CleanupOptions {
  /** Only tables whose marker is at least this old (default 0). */
  olderThanMs?: number;
  /** Upper bound on each request (default 15 s). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** Every `stress…` table of the account, each with its marker and whether it is to be removed. */
export async function findLeftovers(clients: ClientPair, endpoint: string, o: CleanupOptions = {}): Promise<LeftoverTable[]> {
  const timeoutMs = o.timeoutMs ?? 15_000;
  const names = await call(endpoint, timeoutMs, o.signal, async (abortSignal) => {
    const out: string[] = [];
    // The prefix as a key range ('strest' is the first name after every 'stress…'): the service lists only those, however many tables the account has.
    const filter = `TableName ge '${STRESS_PREFIX}' and TableName lt 'strest'`;
    for await (const t of clients.service.listTables({ abortSignal, queryOptions: { filter } }))
      if (t.name?.startsWith(STRESS_PREFIX)) out.push(t.name);
    return out.sort();
  }).catch((e: unknown) => {
    // Listing the tables is not found only when the endpoint serves no such account: the connection string's mistake.
    if ((e as ErrorLike).statusCode === 404) throw new InputError(noAccount(endpoint));
    throw e;
  });
  const found: LeftoverTable[] = [];
  for (const table of names) {
    let entity: Record<string, unknown> | undefined;
    try {
      entity = await call(endpoint, timeoutMs, o.signal, (abortSignal) =>
        clients.table(table).getEntity<Record<string, unknown>>(MARKER_PARTITION, MARKER_ROW, { abortSignal }),
      );
    } catch (e) {
      const code = errorCode(e as ErrorLike);
      if (code === "TableNotFound") continue;
      if (code === "ResourceNotFound" || (e as ErrorLike).statusCode === 404) entity = undefined;
      else throw e;
    }
    const marker = entity && parseMarker(entity);
    found.push({ table, marker, keep: keepReason(table, marker, o.olderThanMs ?? 0) });
  }
  return found;
}

/** Deletes each table of `tables` that is not kept; a table whose deletion fails is reported with the reason in words. */
export async function removeLeftovers(
  clients: ClientPair,
  endpoint: string,
  tables: LeftoverTable[],
  o: CleanupOptions = {},
): Promise<Array<{ table: string; removed: boolean; reason?: string }>> {
  const out: Array<{ table: string; removed: boolean; reason?: string }> = [];
  for (const t of tables) {
    if (t.keep || o.signal?.aborted) continue;
    const outcome = await deleteWithBackoff(
      clients.service,
      t.table,
      endpoint,
      { until: performance.now() + (o.timeoutMs ?? 15_000) },
      o.timeoutMs ?? 15_000,
    );
    out.push({ table: t.table, removed: outcome.deleted, reason: outcome.reason });
  }
  return out;
}

/** What a 404 to listing the tables means: the account the endpoint names is not served there. */
function noAccount(endpoint: string): string {
  const segment = /^https?:\/\/[^/]+\/([^/?]+)/.exec(endpoint)?.[1];
  const name = segment ?? /^https?:\/\/([^.]+)\./.exec(endpoint)?.[1];
  return `no account${name ? ` '${name}'` : ""} here (check the connection string's AccountName and TableEndpoint)`;
}

/** One line about a table: its age, host and design when marked. */
export function describeLeftover(t: LeftoverTable, now = Date.now()): string {
  if (!t.marker) return t.table;
  const m = t.marker;
  return `${t.table} (created ${age(now - m.createdAt.getTime())} ago on ${m.host || "an unknown host"}${m.design ? ` for ${m.design}` : ""}, pid ${m.pid})`;
}

/** A duration as people say it: 45 s, 12 min, 3 h, 2 days. */
export function age(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  if (s < 172_800) return `${Math.round(s / 3600)} h`;
  return `${Math.round(s / 86_400)} days`;
}

function keepReason(table: string, marker: MarkerInfo | undefined, olderThanMs: number): string | undefined {
  if (!marker) return "no marker: not made by a stress test of this tool, left alone";
  const ageMs = Date.now() - marker.createdAt.getTime();
  if (ageMs < olderThanMs) return `created ${age(ageMs)} ago, younger than asked`;
  if (marker.host === hostname()) {
    if (marker.pid === process.pid && activeTables.has(table)) return "its stress test is still running here";
    if (marker.pid !== process.pid && alive(marker.pid))
      return `its stress test may still be running (process ${marker.pid} on this host is alive)`;
  }
  return undefined;
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** One bounded request; failures other than "not found" become messages a user can act on. */
async function call<T>(
  endpoint: string,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  fn: (s: AbortSignal) => Promise<T>,
): Promise<T> {
  try {
    return await withDeadline(signal, timeoutMs, fn);
  } catch (e) {
    if ((e as ErrorLike).statusCode === 404) throw e;
    throw toAccountError(e, endpoint, timeoutMs);
  }
}
