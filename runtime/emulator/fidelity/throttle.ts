/**
 * Throttling as the service does it: token buckets per partition key, per
 * range partition at either end of a table's key order, and per account,
 * at the profile's targets scaled by K, counting entities (a batch counts
 * its entities; a query the entities it scans, estimated from what this
 * layer has seen written to the partitions it touches).
 *
 * The range-partition buckets model what makes append-only keys hot on
 * Azure: the service keeps adjacent keys on one partition server, so
 * inserts whose partition keys lie beyond every key the table has (new
 * keys at the end, or the start, of the key order) all land on the same
 * server — whatever their number of distinct values.
 */

export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    readonly ratePerSecond: number,
    private readonly capacity = ratePerSecond,
    now = performance.now(),
  ) {
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
  /** How many seconds of its rate a bucket holds (the burst it lets through at once); default 1. */
  burstSeconds?: number;
  /** False: nothing is throttled (a calibration probe measures the machine, not the targets). Default true. */
  enabled?: boolean;
}

/** Which target a refused request hit: its partition, the range partition at an end of the key order, or the account. */
export type ThrottleScope = "partition" | "range" | "account";

/** The keys a table has been given so far: its ends, and the buckets of the range partitions there. */
interface KeyEnds {
  min: string;
  max: string;
  start?: TokenBucket;
  end?: TokenBucket;
}

export class Throttle {
  private partitions = new Map<string, TokenBucket>();
  private account: TokenBucket;
  private ends = new Map<string, KeyEnds>();
  /** Entities this layer has seen written, per table and partition: the scan estimate. */
  private readonly seen = new Map<string, Map<string, number>>();
  /** The same, summed per table: an unpinned query is priced without walking every partition. */
  private readonly totals = new Map<string, number>();
  /** Partition buckets held before idle (full) ones are dropped: a client touching millions of keys costs no more memory than it needs. */
  private pruneAt = 10_000;

  constructor(private s: ThrottleSettings) {
    this.account = this.bucket(s.accountTarget);
  }

  /** The settings in force. */
  get settings(): Readonly<ThrottleSettings> {
    return this.s;
  }

  /**
   * Changes the targets' scale, the burst or whether anything is throttled,
   * starting every bucket afresh (full). What was seen written stays: scans
   * are still priced from it.
   */
  configure(s: ThrottleSettings): void {
    this.s = { ...s };
    this.partitions = new Map();
    this.ends = new Map();
    this.pruneAt = 10_000;
    this.account = this.bucket(s.accountTarget);
  }

  private bucket(target: number, minBurstSeconds = 0): TokenBucket {
    const rate = target * this.s.scale;
    return new TokenBucket(rate, rate * Math.max(this.s.burstSeconds ?? 1, minBurstSeconds));
  }

  /** Charges `cost` entities to a partition (and the account); false when either is past its target. */
  admit(table: string, partitionKey: string | undefined, cost: number, inserts = 0): boolean {
    return this.check(table, partitionKey, cost, inserts) === undefined;
  }

  /**
   * Charges `cost` entities to a partition, to the range partition at an end
   * of the key order when `inserts` new entities land beyond it, and to the
   * account; answers which target refused, or undefined when admitted.
   */
  check(table: string, partitionKey: string | undefined, cost: number, inserts = 0): ThrottleScope | undefined {
    if (this.s.enabled === false) return undefined;
    if (partitionKey !== undefined) {
      const id = `${table}\u0000${partitionKey}`;
      let bucket = this.partitions.get(id);
      if (!bucket) {
        if (this.partitions.size >= this.pruneAt) this.prune();
        this.partitions.set(id, (bucket = this.bucket(this.s.partitionTarget)));
      }
      if (!bucket.take(cost)) return "partition";
      if (inserts > 0 && !this.admitAtEnds(table, partitionKey, inserts)) return "range";
    }
    return this.account.take(cost) ? undefined : "account";
  }

  /**
   * Inserts beyond the table's highest (lowest) partition key go to the range
   * partition at that end, one server: its bucket takes them. The first key
   * a table gets sets both ends. A range bucket holds at least a second of
   * its rate, so the few keys that happen to set a new extreme in a
   * scattered key space are never refused.
   */
  private admitAtEnds(table: string, partitionKey: string, inserts: number): boolean {
    const e = this.ends.get(table);
    if (!e) {
      this.ends.set(table, { min: partitionKey, max: partitionKey });
      return true;
    }
    if (partitionKey > e.max) {
      e.end ??= this.bucket(this.s.partitionTarget, 1);
      if (!e.end.take(inserts)) return false;
      e.max = partitionKey;
    } else if (partitionKey < e.min) {
      e.start ??= this.bucket(this.s.partitionTarget, 1);
      if (!e.start.take(inserts)) return false;
      e.min = partitionKey;
    }
    return true;
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
