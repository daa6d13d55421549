/**
 * Long operations the page can follow and cancel (delete, import, export):
 * each runs under a name the page chose, with a signal that aborts when
 * the page cancels it by that name or when VS Code's progress notification
 * is cancelled — whichever comes first.
 */
import { PanelError } from "./service-errors";

/** Operations running at once for one page (the page runs one at a time; this only bounds a hostile one). */
const MAX_RUNNING = 8;

export class Operations {
  private readonly running = new Map<string, AbortController>();

  /**
   * Runs `work` with a signal that aborts on `cancel(id)` or when `outer`
   * aborts. Without an id the operation cannot be cancelled from the page.
   */
  async run<T>(id: string | undefined, outer: AbortSignal, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (id === undefined) return work(outer);
    if (this.running.has(id)) throw new PanelError(`an operation named '${id}' is already running`);
    if (this.running.size >= MAX_RUNNING) throw new PanelError(`more than ${MAX_RUNNING} operations at once: wait for one to finish`);
    const own = new AbortController();
    this.running.set(id, own);
    try {
      return await work(AbortSignal.any([own.signal, outer]));
    } finally {
      this.running.delete(id);
    }
  }

  /** Cancels the operation named `id`; false when none of that name runs. */
  cancel(id: string): boolean {
    const op = this.running.get(id);
    if (!op) return false;
    op.abort();
    return true;
  }

  /** Cancels everything (the panel closed). */
  cancelAll(): void {
    for (const op of this.running.values()) op.abort();
  }
}
