/**
 * How many different values a property has, from a sample. Values are
 * counted exactly (with their frequencies) up to a cap, which a default
 * sample of `tdl infer` stays below; past the cap a HyperLogLog sketch
 * (./hyperloglog.ts, seeded with every value counted so far) carries the
 * count on, within about 1.6 %. The table's count is then extrapolated with
 * the Guaranteed-Error Estimator (Charikar, Chaudhuri, Motwani, Narasayya,
 * PODS 2000): values seen once stand for √(N/n) unseen ones each.
 */
import { HyperLogLog } from "./hyperloglog";

/** Distinct values counted exactly per property; beyond it the sketch counts. */
export const EXACT_DISTINCT_CAP = 200_000;

export class DistinctCounter {
  private readonly counts = new Map<string, number>();
  private seen = 0;
  /** Values not counted exactly because the cap was reached. */
  private overflow = 0;
  /** Every value seen, once the cap is reached (4,096 registers: ≈ 1.6 % standard error). */
  private sketch: HyperLogLog | undefined;

  add(value: string): void {
    this.seen++;
    const c = this.counts.get(value);
    if (c !== undefined) this.counts.set(value, c + 1);
    else if (this.counts.size < EXACT_DISTINCT_CAP) this.counts.set(value, 1);
    else {
      this.overflow++;
      if (!this.sketch) {
        this.sketch = new HyperLogLog();
        for (const v of this.counts.keys()) this.sketch.add(v);
      }
    }
    this.sketch?.add(value);
  }

  /** Values added. */
  get total(): number {
    return this.seen;
  }

  /** Different values seen: exact below the cap, the sketch's estimate (never below the exact count) past it. */
  get distinct(): number {
    return this.sketch ? Math.max(this.counts.size, Math.round(this.sketch.count())) : this.counts.size;
  }

  get capped(): boolean {
    return this.overflow > 0;
  }

  /** Values seen exactly once (f1 of the estimator). */
  singletons(): number {
    let n = 0;
    for (const c of this.counts.values()) if (c === 1) n++;
    return n;
  }

  /** The most frequent value and its count. */
  top(): { value: string; count: number } | undefined {
    let best: { value: string; count: number } | undefined;
    for (const [value, count] of this.counts) if (!best || count > best.count) best = { value, count };
    return best;
  }

  /** The values in order of first appearance (for small sets: enums). */
  values(): string[] {
    return [...this.counts.keys()];
  }

  /**
   * Estimated distinct values in a table of `tableRows` rows of which this
   * sample holds `total`: GEE = √(N/n)·f1 + Σ_{j≥2} f_j, never below what
   * was seen nor above N.
   */
  estimate(tableRows: number): number {
    const n = this.seen;
    if (!n) return 0;
    if (tableRows <= n) return this.distinct;
    const f1 = this.singletons();
    const gee = Math.sqrt(tableRows / n) * f1 + (this.distinct - f1);
    return Math.round(Math.min(tableRows, Math.max(this.distinct, gee)));
  }
}
