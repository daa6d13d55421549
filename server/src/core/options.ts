/**
 * The options of an analysis, and their one owner: `resolveOptions()` reads
 * them from wherever a user gave them — the `tableDesign` settings (language
 * server, extension), the `tdl` flags — with the same checks and the same
 * messages, so every surface analyses a design the same way.
 */
import { isServiceName, SERVICE_NAMES, ServiceName } from "./services";

export interface AnalysisOptions {
  /** Profile for files that do not declare `service`. */
  defaultService?: ServiceName;
  /** Overrides the profile's per-partition target (entities/s), from the setting. */
  partitionTargetEntitiesPerSecond?: number;
}

/** Options as a user gave them: any value of any type (a settings object, parsed flags). */
export interface OptionInput {
  service?: unknown;
  partitionTargetEntitiesPerSecond?: unknown;
}

export interface ResolvedOptions {
  options: AnalysisOptions;
  /** What was given and could not be used, one sentence each (the value is left out). */
  problems: string[];
}

/**
 * Checks and converts options from any source. What cannot be used is left
 * out of `options` and named in `problems`: the language server logs them,
 * the CLI turns them into a usage error.
 */
export function resolveOptions(input: unknown, names: { service?: string; target?: string } = {}): ResolvedOptions {
  const raw: OptionInput = typeof input === "object" && input !== null ? input : {};
  const options: AnalysisOptions = {};
  const problems: string[] = [];
  if (raw.service !== undefined && raw.service !== null) {
    if (isServiceName(raw.service)) options.defaultService = raw.service;
    else problems.push(`${names.service ?? "service"} must be one of ${SERVICE_NAMES.join(", ")}${typeof raw.service === "string" && raw.service.length <= 40 ? `, not '${raw.service}'` : ""}`);
  }
  const target = typeof raw.partitionTargetEntitiesPerSecond === "string" ? Number(raw.partitionTargetEntitiesPerSecond) : raw.partitionTargetEntitiesPerSecond;
  if (raw.partitionTargetEntitiesPerSecond !== undefined && raw.partitionTargetEntitiesPerSecond !== null) {
    if (typeof target === "number" && Number.isFinite(target) && target > 0) options.partitionTargetEntitiesPerSecond = target;
    else problems.push(`${names.target ?? "partitionTargetEntitiesPerSecond"} must be a number of entities per second above 0`);
  }
  return { options, problems };
}
