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

  constructor(private readonly s: ThrottleSettings) {
    this.account = new TokenBucket(s.accountTarget * s.scale);
  }

  /** Charges `cost` entities to a partition (and the account); false when either is past its target. */
  admit(table: string, partitionKey: string | undefined, cost: number): boolean {
    if (partitionKey !== undefined) {
      const id = `${table}\u0000${partitionKey}`;
      let bucket = this.partitions.get(id);
      if (!bucket) this.partitions.set(id, (bucket = new TokenBucket(this.s.partitionTarget * this.s.scale)));
      if (!bucket.take(cost)) return false;
    }
    return this.account.take(cost);
  }

  /** Records entities written (+) or deleted (−) so later scans can be priced. */
  wrote(table: string, partitionKey: string, delta: number): void {
    let t = this.seen.get(table);
    if (!t) this.seen.set(table, (t = new Map()));
    t.set(partitionKey, Math.max(0, (t.get(partitionKey) ?? 0) + delta));
  }

  /** Entities a query scans: the partition's when it pins one, else the whole table's. */
  scanned(table: string, partitionKey: string | undefined): number {
    const t = this.seen.get(table);
    if (!t) return 1;
    if (partitionKey !== undefined) return Math.max(1, t.get(partitionKey) ?? 0);
    let n = 0;
    for (const v of t.values()) n += v;
    return Math.max(1, n);
  }
}
