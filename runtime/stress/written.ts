/**
 * The entities a run has written, for reads, updates and deletes to find:
 * a uniform sample (reservoir sampling) of bounded size, so a long run at
 * a high rate holds no more than `capacity` of them.
 */
import type { Scalar } from "@core";

export interface WrittenEntity {
  pk: string;
  rk: string;
  /** The property values it was generated from (design mode: the source of a query's parameters). */
  values?: ReadonlyMap<string, Scalar>;
}

export class WrittenPool {
  private readonly items: WrittenEntity[] = [];
  private added = 0;

  constructor(
    private readonly capacity = 20_000,
    private readonly random: () => number = Math.random,
  ) {}

  get size(): number {
    return this.items.length;
  }

  add(e: WrittenEntity): void {
    this.added++;
    if (this.items.length < this.capacity) return void this.items.push(e);
    const j = Math.floor(this.random() * this.added);
    if (j < this.capacity) this.items[j] = e;
  }

  /** A random written entity (undefined while none is). */
  pick(): WrittenEntity | undefined {
    return this.items.length ? this.items[Math.floor(this.random() * this.items.length)] : undefined;
  }

  /** Removes and returns a random written entity (for a delete: it is then gone). */
  take(): WrittenEntity | undefined {
    if (!this.items.length) return undefined;
    const i = Math.floor(this.random() * this.items.length);
    const e = this.items[i];
    this.items[i] = this.items[this.items.length - 1];
    this.items.pop();
    return e;
  }
}
