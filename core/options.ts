/**
 * The options of an analysis, and their one owner: `resolveOptions()` reads
 * them from wherever a user gave them — the `tableDesign` settings (language
 * server, extension), the `tdl` flags — with the same checks and the same
 * messages, so every surface analyses a design the same way.
 */
import { isServiceName, SERVICE_NAMES, ServiceName } from "./services";
import { Severity } from "./findings";

/** A rule's level as a user sets it: a severity, or `off`. */
export type RuleLevel = Severity | "off";

export const RULE_LEVELS: readonly RuleLevel[] = ["off", "hint", "info", "warning", "error"];

export interface AnalysisOptions {
  /** Profile for files that do not declare `service`. */
  defaultService?: ServiceName;
  /** Overrides the profile's per-partition target (entities/s), from the setting. */
  partitionTargetEntitiesPerSecond?: number;
  /** Per-rule levels by code (`tableDesign.rules`, `--rule code=level`): a severity, or `off`. */
  rules?: Record<string, RuleLevel>;
  /** Load rules also in test files (`tableDesign.typescript.testFiles`, `tdl check --test-files`); off by default. */
  loadRulesInTests?: boolean;
}

/** Options as a user gave them: any value of any type (a settings object, parsed flags). */
export interface OptionInput {
  service?: unknown;
  partitionTargetEntitiesPerSecond?: unknown;
  /** An object of code → level, or `code=level` pairs separated by commas. */
  rules?: unknown;
  /** Load rules in test files: a boolean (a flag's `true`), or the settings' `typescript.testFiles`. */
  testFiles?: unknown;
  typescript?: unknown;
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
export function resolveOptions(
  input: unknown,
  names: { service?: string; target?: string; rules?: string; testFiles?: string } = {},
): ResolvedOptions {
  const raw: OptionInput = typeof input === "object" && input !== null ? input : {};
  const options: AnalysisOptions = {};
  const problems: string[] = [];
  if (raw.service !== undefined && raw.service !== null) {
    if (isServiceName(raw.service)) options.defaultService = raw.service;
    else
      problems.push(
        `${names.service ?? "service"} must be one of ${SERVICE_NAMES.join(", ")}${typeof raw.service === "string" && raw.service.length <= 40 ? `, not '${raw.service}'` : ""}`,
      );
  }
  const target =
    typeof raw.partitionTargetEntitiesPerSecond === "string"
      ? Number(raw.partitionTargetEntitiesPerSecond)
      : raw.partitionTargetEntitiesPerSecond;
  if (raw.partitionTargetEntitiesPerSecond !== undefined && raw.partitionTargetEntitiesPerSecond !== null) {
    if (typeof target === "number" && Number.isFinite(target) && target > 0) options.partitionTargetEntitiesPerSecond = target;
    else problems.push(`${names.target ?? "partitionTargetEntitiesPerSecond"} must be a number of entities per second above 0`);
  }
  if (raw.rules !== undefined && raw.rules !== null) {
    const levels = ruleLevels(raw.rules, names.rules ?? "rules", problems);
    if (Object.keys(levels).length) options.rules = levels;
  }
  const testFiles =
    raw.testFiles ??
    (typeof raw.typescript === "object" && raw.typescript !== null ? (raw.typescript as { testFiles?: unknown }).testFiles : undefined);
  if (testFiles !== undefined && testFiles !== null) {
    if (typeof testFiles === "boolean") options.loadRulesInTests = testFiles;
    else problems.push(`${names.testFiles ?? "typescript.testFiles"} must be true or false`);
  }
  return { options, problems };
}

const CODE = /^[a-z][a-z0-9-]*(\/[a-z0-9-]+)?$/;

/** `{ "key/unpadded-number": "off" }` or `key/unpadded-number=off,query/class=info`. */
function ruleLevels(raw: unknown, name: string, problems: string[]): Record<string, RuleLevel> {
  const pairs: Array<[string, unknown]> =
    typeof raw === "string"
      ? raw
          .split(",")
          .filter((p) => p.trim())
          .map((p) => {
            const i = p.indexOf("=");
            return i < 0 ? [p.trim(), undefined] : [p.slice(0, i).trim(), p.slice(i + 1).trim()];
          })
      : typeof raw === "object" && !Array.isArray(raw)
        ? Object.entries(raw as Record<string, unknown>)
        : [];
  if (typeof raw !== "string" && pairs.length === 0 && (typeof raw !== "object" || Array.isArray(raw)))
    problems.push(`${name} must map rule codes to ${RULE_LEVELS.join(", ")}`);
  const out: Record<string, RuleLevel> = Object.create(null);
  for (const [code, level] of pairs) {
    if (code.length > 60 || !CODE.test(code)) {
      problems.push(`${name}: '${code.slice(0, 60)}' is not a rule code (such as key/unpadded-number)`);
      continue;
    }
    if (!RULE_LEVELS.includes(level as RuleLevel)) {
      problems.push(`${name}: ${code} needs one of ${RULE_LEVELS.join(", ")}`);
      continue;
    }
    out[code] = level as RuleLevel;
  }
  return { ...out };
}
