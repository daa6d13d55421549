/**
 * Ctrl+C (SIGINT) and SIGTERM during `tdl stress`. The first press cancels
 * the run in whatever phase it is, and the table is deleted as usual. The
 * second says the table is being deleted before exiting and bounds that to
 * 10 s. Only the third exits at once — and says which table remains and how
 * to remove it. SIGHUP (the terminal closed) is a user who is gone: cancel
 * and delete within the short bound at once, writing only where a write
 * still goes.
 */
import type { StressPhase } from "@runtime";
import { EXIT } from "../../failure";

/** Deletion's bound after the second press; the process exits a little after it whatever happens. */
export const HURRY_DELETE_MS = 10_000;
const HARD_EXIT_MS = HURRY_DELETE_MS + 2_000;

const ignore = (): void => undefined;

export class StressInterrupts {
  /** Aborted by the first press: cancels the run. */
  readonly cancel = new AbortController();
  /** Aborted by the second press: deletion gets at most `HURRY_DELETE_MS` more. */
  readonly hurry = new AbortController();
  private presses = 0;
  private table: string | undefined;
  private phase: StressPhase | undefined;
  private hardExit: NodeJS.Timeout | undefined;

  /**
   * `leftover(table)` says what remains when the process exits now and how
   * to remove it (or that the embedded emulator takes the table with it).
   */
  constructor(
    private readonly leftover: (table: string) => string,
    private readonly write: (text: string) => void,
    private readonly exit: (code: number) => void = (code) => process.exit(code),
  ) {}

  install(): void {
    process.on("SIGINT", this.press);
    process.on("SIGTERM", this.press);
    process.on("SIGHUP", this.hangup);
    // A closed terminal or pipe fails writes (EIO, EPIPE) as 'error' events: losing a line must not stop the deletion.
    process.stdout.on("error", ignore);
    process.stderr.on("error", ignore);
  }

  uninstall(): void {
    process.off("SIGINT", this.press);
    process.off("SIGTERM", this.press);
    process.off("SIGHUP", this.hangup);
    process.stdout.off("error", ignore);
    process.stderr.off("error", ignore);
    clearTimeout(this.hardExit);
  }

  /** The terminal closed: nobody will press Ctrl+C again, so the first two presses happen now. */
  private readonly hangup = (): void => {
    while (this.presses < 2) this.press();
  };

  /** The run's phase and table, as the engine reports them. */
  track(phase: StressPhase, table: string): void {
    this.phase = phase;
    this.table = table;
  }

  private readonly press = (): void => {
    this.presses++;
    const table = this.table ? `the stress table ${this.table}` : "the stress table";
    if (this.presses === 1) {
      this.write(
        `\ntdl: cancelling: stopping the run, then deleting ${table} (press Ctrl+C again to wait at most ${HURRY_DELETE_MS / 1000} s)\n`,
      );
      this.cancel.abort();
    } else if (this.presses === 2) {
      this.write(
        `tdl: deleting ${table} before exiting (at most ${HURRY_DELETE_MS / 1000} s; press Ctrl+C once more to exit now and leave it behind)\n`,
      );
      this.hurry.abort();
      // Whatever else is slow, the promise of a bounded wait holds.
      this.hardExit = setTimeout(() => this.exitNow(`${HURRY_DELETE_MS / 1000} s passed`), HARD_EXIT_MS);
      this.hardExit.unref();
    } else {
      this.exitNow("exiting now");
    }
  };

  private exitNow(why: string): void {
    const what = this.table === undefined || this.phase === undefined ? "no stress table was created" : this.leftover(this.table);
    this.write(`tdl: ${why}: ${what}\n`);
    this.exit(EXIT.failed);
  }
}
