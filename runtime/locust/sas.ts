/**
 * Table SAS tokens for Locust workers and engines, minted where the account
 * key is (tdl's process) so the key itself never reaches a worker, a file
 * or Azure Load Testing: one token per engine, each for the stress table
 * only, with read/add/update/delete on entities, the PartitionKey range the
 * workload writes when the design has one, and a bounded life.
 */
import { AzureNamedKeyCredential, generateTableSas } from "@azure/data-tables";
import { type Expr } from "@core";
import type { StressMode } from "@protocol/stress-report";

/** The account name and key, read from a connection string by the caller. */
export interface AccountKey {
  account: string;
  key: string;
}

/** The PartitionKey range a workload writes: the mode's own keys, or the design's literal prefix (none without one). */
export function partitionRange(mode: StressMode, pk: Expr | undefined): { start: string; end: string } | undefined {
  if (mode === "single-partition") return { start: "stress-hot", end: "stress-hot" };
  if (mode === "spread") return { start: "stress-0000", end: "stress-1023" };
  const first = pk?.parts[0];
  if (first?.kind === "string" && first.value) return { start: first.value, end: `${first.value}\uffff` };
  return undefined;
}

/**
 * `count` table SAS tokens (without `?`) for `table`, valid from five
 * minutes ago (clocks differ) for `validMs`; each starts a second after the
 * one before, so every engine's token is its own.
 */
export function mintTableSas(
  key: AccountKey,
  table: string,
  o: { count: number; validMs: number; range?: { start: string; end: string }; now?: Date },
): string[] {
  const credential = new AzureNamedKeyCredential(key.account, key.key);
  const now = (o.now ?? new Date()).getTime();
  return Array.from({ length: o.count }, (_, i) =>
    generateTableSas(table, credential, {
      permissions: { query: true, add: true, update: true, delete: true },
      startsOn: new Date(now - 300_000 + i * 1000),
      expiresOn: new Date(now + o.validMs),
      ...(o.range ? { startPartitionKey: o.range.start, endPartitionKey: o.range.end } : {}),
    }).replace(/^\?/, ""),
  );
}
