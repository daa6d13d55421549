/**
 * The one engine chooser of a stress test: who sends the load — this
 * process (builtin) or a Locust master with workers on this machine. `tdl
 * stress --engine` and the VS Code setting `tableDesign.stress.engine` both
 * name an engine here; whether Locust is installed is checked when it is
 * chosen, before an emulator or a table is started for it.
 */
import type { StressReport } from "@protocol/stress-report";
import { runStress, type StressJob } from "../stress/engine";
import { runLocustStress, type LocustEngineOptions } from "./index";
import { findLocust } from "./processes";

/** The engines by name, as `--engine` and the setting spell them. */
export const ENGINES = ["builtin", "locust"] as const;
export type EngineName = (typeof ENGINES)[number];

/** Locust workers on this machine: the default and the bound. */
export const LOCUST_WORKERS = { default: 2, min: 1, max: 64 } as const;

/** A chosen engine: the built-in one, or Locust at its path with its workers. */
export type StressEngine = { name: "builtin" } | { name: "locust"; workers: number; locust: string };

/**
 * The engine called `name`; Locust with `workers` workers (the default when
 * not given; whole, within 1 to 64). Throws an `UnavailableError` with the
 * install line when Locust is chosen and not on `pathVar`.
 */
export function chooseEngine(name: EngineName, workers?: number, pathVar?: string): StressEngine {
  if (name === "builtin") return { name };
  const n = Math.max(LOCUST_WORKERS.min, Math.min(LOCUST_WORKERS.max, Math.floor(workers ?? LOCUST_WORKERS.default)));
  return { name, workers: n, locust: findLocust(pathVar) };
}

/** Runs `job` on `engine` (Locust's process watch may take `watch`). */
export function runOn(
  engine: StressEngine,
  job: StressJob,
  watch: Pick<LocustEngineOptions, "log" | "onProcess"> = {},
): Promise<StressReport> {
  return engine.name === "locust" ? runLocustStress(job, { ...watch, workers: engine.workers, locust: engine.locust }) : runStress(job);
}
