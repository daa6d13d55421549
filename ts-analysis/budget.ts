/**
 * The time budget of the TypeScript analysis. Every step is linear in the
 * file (one walk for its facts, one summary per function, memoised values),
 * but code nobody here wrote can still be larger than an editor can wait
 * for: past the deadline, the step that runs out throws `Exhausted`, the
 * analysis keeps every finding it made so far and says once what it skipped.
 *
 * The clock is read every `STRIDE` ticks only, so a tick costs a counter.
 */

/** Thrown by `Budget.tick` past the deadline; caught where a partial answer is still an answer. */
export class Exhausted extends Error {
  constructor(readonly budget: Budget) {
    super(`the analysis budget of ${budget.ms} ms is spent`);
    this.name = "Exhausted";
  }
}

const STRIDE = 256;

export class Budget {
  private deadline: number;
  private steps = 0;
  private spent = false;
  private extended = false;
  /** What was cut short, in the order it happened (said once, in the file's budget notice). */
  readonly skipped: string[] = [];

  /** @param ms the time this budget allows from now; Infinity for none. */
  constructor(readonly ms: number = Infinity) {
    this.deadline = performance.now() + ms;
  }

  /** One step of work: throws `Exhausted` once the deadline has passed (checked every few hundred steps). */
  tick(): void {
    if (this.spent) throw new Exhausted(this);
    if (++this.steps % STRIDE !== 0) return;
    if (performance.now() > this.deadline) {
      this.spent = true;
      throw new Exhausted(this);
    }
  }

  /** Steps counted so far: what the tests assert on instead of a machine's speed. */
  get work(): number {
    return this.steps;
  }

  get exhausted(): boolean {
    return this.spent;
  }

  /**
   * Once: a grace of `ms` after the budget ran out, so that what was found before can still be judged
   * (the calls found are checked by the rules, the calls not reached stay skipped). Bounded all the same.
   */
  extend(ms: number): void {
    if (this.extended || !this.spent) return;
    this.extended = true;
    this.spent = false;
    this.deadline = performance.now() + ms;
  }

  /** Records that `what` was cut short (once per distinct text). */
  skip(what: string): void {
    if (!this.skipped.includes(what)) this.skipped.push(what);
  }

  /** Runs `fn`; when the budget runs out inside it, records `what` and returns `fallback` instead of throwing. */
  guard<T>(what: string, fallback: T, fn: () => T): T {
    try {
      return fn();
    } catch (e) {
      if (!(e instanceof Exhausted)) throw e;
      this.skip(what);
      return fallback;
    }
  }
}

/** A budget that never runs out (callers that do not pass one). */
export const UNBOUNDED = (): Budget => new Budget(Infinity);
