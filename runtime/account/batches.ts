/**
 * Entity group transactions as the service allows them: one partition each,
 * at most 100 entities (service-facts.md).
 */

/** At most this many operations in one entity group transaction. */
export const BATCH_LIMIT = 100;

/** Groups keys by partition, in runs of at most 100 (an entity group transaction's limit). */
export function batchesByPartition<T extends { partitionKey: string }>(items: T[]): T[][] {
  const byPk = new Map<string, T[]>();
  for (const it of items) {
    const list = byPk.get(it.partitionKey) ?? [];
    list.push(it);
    byPk.set(it.partitionKey, list);
  }
  const out: T[][] = [];
  for (const list of byPk.values()) for (let i = 0; i < list.length; i += BATCH_LIMIT) out.push(list.slice(i, i + BATCH_LIMIT));
  return out;
}
