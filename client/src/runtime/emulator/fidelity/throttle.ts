/**
 * Throttling as the service does it: token buckets per partition key and
 * per account at the profile's targets scaled by K, counting entities (a
 * batch counts its entities; a query the entities it scans, estimated from
 * what this layer has seen written to the partitions it touches).
 */

export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(readonly ratePerSecond: number, private readonly capacity = ratePerSecond, now = performance.now()) {
    this.tokens = capacity;
    this.last = now;
  }

  /** Takes `cost` tokens if they are there; a request is throttled whole or not at all. */
  take(cost: number, now = performance.now()): boolean {
    this.tokens = Math.min(this.capacity, this.tokens + ((now - this.last) / 1000) * this.ratePerSecond);
    this.last = now;
    // A request costlier than a full bucket still passes when the bucket is full (it cannot ever fit otherwise).
    if (this.tokens >= Math.min(cost, this.capacity)) {
      this.tokens -= cost;
      return true;
    }
    return false;
  }

  /** Whether the bucket has refilled to capacity: then it is no different from a new one. */
  full(now = performance.now()): boolean {
    return this.tokens + ((now - this.last) / 1000) * this.ratePerSecond >= this.capacity;
  }
}

export interface ThrottleSettings {
  /** Entities per second per partition at scale 1 (Azure: 2,000). */
  partitionTarget: number;
  /** Entities per second per account at scale 1 (Azure: 20,000). */
  accountTarget: number;
  scale: number;
}

export class Throttle {
  private readonly partitions = new Map<string, TokenBucket>();
  private readonly account: TokenBucket;
  /** Entities this layer has seen written, per table and partition: the scan estimate. */
  private readonly seen = new Map<string, Map<string, number>>();
  /** The same, summed per table: an unpinned query is priced without walking every partition. */
  private readonly totals = new Map<string, number>();
  /** Partition buckets held before idle (full) ones are dropped: a client touching millions of keys costs no more memory than it needs. */
  private pruneAt = 10_000;

  constructor(private readonly s: ThrottleSettings) {
    this.account = new TokenBucket(s.accountTarget * s.scale);
  }

  /** Charges `cost` entities to a partition (and the account); false when either is past its target. */
  admit(table: string, partitionKey: string | undefined, cost: number): boolean {
    if (partitionKey !== undefined) {
      const id = `${table}\u0000${partitionKey}`;
      let bucket = this.partitions.get(id);
      if (!bucket) {
        if (this.partitions.size >= this.pruneAt) this.prune();
        this.partitions.set(id, (bucket = new TokenBucket(this.s.partitionTarget * this.s.scale)));
      }
      if (!bucket.take(cost)) return false;
    }
    return this.account.take(cost);
  }

  /** Drops the buckets that have refilled; the next sweep waits until the map has doubled (amortised linear). */
  private prune(): void {
    const now = performance.now();
    for (const [id, bucket] of this.partitions) if (bucket.full(now)) this.partitions.delete(id);
    this.pruneAt = Math.max(10_000, 2 * this.partitions.size);
  }

  /** Partition buckets held now (for tests of the pruning). */
  get bucketCount(): number {
    return this.partitions.size;
  }

  /** Records entities written (+) or deleted (−) so later scans can be priced. */
  wrote(table: string, partitionKey: string, delta: number): void {
    let t = this.seen.get(table);
    if (!t) this.seen.set(table, (t = new Map()));
    const before = t.get(partitionKey) ?? 0;
    const after = Math.max(0, before + delta);
    t.set(partitionKey, after);
    this.totals.set(table, (this.totals.get(table) ?? 0) + after - before);
  }

  /** Entities a query scans: the partition's when it pins one, else the whole table's. */
  scanned(table: string, partitionKey: string | undefined): number {
    const t = this.seen.get(table);
    if (!t) return 1;
    if (partitionKey !== undefined) return Math.max(1, t.get(partitionKey) ?? 0);
    return Math.max(1, this.totals.get(table) ?? 0);
  }
}
