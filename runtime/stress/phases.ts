/**
 * The phases of a stress run and the words for them, and the failure a run
 * ends with: which phase failed, at which endpoint (its host only — never a
 * key, token or query string), and whether the table was left behind and
 * how to remove it.
 */
import type { StressReport, Leftover } from "@protocol/stress-report";
import { InputError, UnavailableError } from "@core/errors";

export type StressPhase = "create" | "calibrate" | "preload" | "run" | "drain" | "delete";

export const PHASE_WORDS: Record<StressPhase, string> = {
  create: "creating the table",
  calibrate: "calibrating the emulator",
  preload: "loading entities (preload)",
  run: "running the load",
  drain: "waiting for the last requests (drain)",
  delete: "deleting the table",
};

/** What the user can do about a leftover, when the caller does not say it more precisely. */
export const DEFAULT_CLEANUP_HINT =
  "run `tdl stress --cleanup --older-than 0s` against the same endpoint, or the command 'Table Design: Remove Leftover Stress Tables' in VS Code";

/** The run ended badly: `report` holds what was measured up to then. */
export class StressFailure extends UnavailableError {
  constructor(
    message: string,
    readonly report: StressReport,
    readonly phase?: StressPhase,
    readonly leftover?: Leftover,
  ) {
    super(message);
  }
}

/** The design or options cannot be run (exit 2 in the CLI): nothing was created. */
export class StressInputError extends InputError {}

export function leftoverMessage(l: Leftover, hint: string): string {
  return `the stress table ${l.table} remains at ${l.host}: ${l.reason}. To remove it, ${hint}`;
}
