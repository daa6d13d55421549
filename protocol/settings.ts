/**
 * The extension's settings: one typed record per setting (its name under
 * `tableDesign.`, type, default, description, enum, bounds). `package.json`'s
 * `contributes.configuration` and the README's list of settings are
 * generated from it (`npm run docs:settings`,
 * test/unit/protocol/settings.test.ts fails when it drifts), and every
 * reader — the extension (client/vscode/settings.ts) and the language
 * server — goes through `checkSetting`, so a default is written once and a
 * value of the wrong type falls back to it with a sentence that says why.
 */
import { RULE_LEVELS, resolveOptions, type AnalysisOptions } from "@core/options";
import { SERVICE_NAMES } from "@core/services";
import { formatCount } from "@core/text/words";

/** What every setting has: a description, plain or in Markdown, for the settings editor. */
interface Described {
  description?: string;
  markdownDescription?: string;
}

/** A choice among names; `enumDescriptions` explain them in the settings editor, in the same order. */
export interface EnumSetting extends Described {
  type: "string";
  enum: readonly string[];
  enumDescriptions?: readonly string[];
  default: string;
}

/** A number, kept within its bounds; `whole` rounds it down (package.json still says "number", as it always did). */
export interface NumberSetting extends Described {
  type: "number";
  default: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  whole?: true;
}

export interface BooleanSetting extends Described {
  type: "boolean";
  default: boolean;
}

/** A map of names to one of `values`; its entries are checked by their reader (`resolveOptions` for the rule levels). */
export interface MapSetting extends Described {
  type: "object";
  default: Readonly<Record<string, never>>;
  /** What its names are, as the README says it ("rule codes"). */
  names: string;
  values: readonly string[];
}

export type SettingSpec = EnumSetting | NumberSetting | BooleanSetting | MapSetting;

/** Every setting, in the order the settings editor lists them. */
export const SETTINGS = {
  service: {
    type: "string",
    enum: SERVICE_NAMES,
    default: SERVICE_NAMES[0],
    description: "Service profile for designs that do not declare `service`: its key, entity and partition limits drive the diagnostics.",
  },
  partitionTargetEntitiesPerSecond: {
    type: "number",
    default: 2000,
    minimum: 1,
    description:
      "Per-partition throughput target, in entities per second, that the load rules and stress tests compare against (the partitioning guide's 2,000).",
  },
  "emulator.port": {
    type: "number",
    default: 0,
    description: "Loopback port of the embedded emulator's table endpoint; 0 picks a free port.",
  },
  "stress.maxDurationSeconds": {
    type: "number",
    default: 120,
    minimum: 1,
    description: "Upper bound on the duration of a partition stress test.",
  },
  "stress.engine": {
    type: "string",
    enum: ["builtin", "locust", "ask"],
    enumDescriptions: [
      "The built-in engine in VS Code's extension host: the quick local check.",
      "A Locust master and tableDesign.stress.locustWorkers workers on this machine (python3-locust on PATH), read back into the same report.",
      "Ask at each stress test.",
    ],
    default: "builtin",
    description: "Who sends a partition stress test's load.",
  },
  "stress.locustWorkers": {
    type: "number",
    default: 2,
    minimum: 1,
    maximum: 64,
    whole: true,
    description: "Locust workers on this machine when a stress test runs on Locust.",
  },
  "typescript.enabled": {
    type: "boolean",
    default: true,
    description: "Analyse TypeScript and JavaScript files that call @azure/data-tables (clients made by helpers included).",
  },
  "typescript.testFiles": {
    type: "boolean",
    default: false,
    description:
      "Also apply the load rules (ts/constant-partition-key, ts/append-only-key, ts/unpadded-number) to test files (*.test.*, *.spec.*, __tests__/, test/).",
  },
  workspaceDiagnostics: {
    type: "string",
    enum: ["designs", "off"],
    enumDescriptions: [
      "Every .tdl design of the workspace gets its diagnostics in the Problems panel, open or not, and again when it changes on disk.",
      "Only open files get diagnostics.",
    ],
    default: "designs",
    description:
      "Which files get diagnostics when they are not open: the workspace's .tdl designs (up to 500 files and 16 MB; the rest are named in the output) or none.",
  },
  "emulator.startOnActivation": {
    type: "boolean",
    default: false,
    description: "Start the embedded emulator (Azurite, in memory) when the extension activates.",
  },
  "emulator.scale": {
    type: "number",
    default: 1,
    exclusiveMinimum: 0,
    description:
      "Scale of the embedded emulator's throttling targets: 0.1 makes a partition run hot at 200 entities/s (Azure: 2,000), so hot partitions show on a laptop.",
  },
  "emulator.fidelity": {
    type: "boolean",
    default: true,
    description: "Put the Azure fidelity layer in front of the embedded emulator: reject what Azure rejects and throttle hot partitions.",
  },
  rules: {
    type: "object",
    default: {},
    names: "rule codes",
    values: RULE_LEVELS,
    markdownDescription:
      'Per-rule levels by diagnostic code, e.g. `{ "query/low-selectivity": "off", "key/separator-order": "error" }`. A single spot is silenced with `// tdl-ignore-next-line CODE` on the line before it (`.tdl`, TypeScript, JavaScript). Codes: see docs/rules.md.',
  },
} as const satisfies Record<string, SettingSpec>;

export type SettingName = keyof typeof SETTINGS;

/** A setting's value as its reader gets it: a boolean, a number, one of its names, or a map. */
export type SettingValue<N extends SettingName> = (typeof SETTINGS)[N] extends { type: "boolean" }
  ? boolean
  : (typeof SETTINGS)[N] extends { type: "number" }
    ? number
    : (typeof SETTINGS)[N] extends { enum: readonly (infer E)[] }
      ? E
      : Readonly<Record<string, unknown>>;

/** The prefix of every setting's id. */
export const SECTION = "tableDesign";

/** A setting's full id as users write it: `tableDesign.stress.engine`. */
export function settingId(name: SettingName): string {
  return `${SECTION}.${name}`;
}

/** The value of a setting as read: its default when unset or unusable, with the sentence that says why it was unusable. */
export interface CheckedSetting<N extends SettingName> {
  value: SettingValue<N>;
  problem?: string;
}

/**
 * A setting's value from whatever a user wrote: unset (`undefined`, `null`)
 * gives the default; a value of the wrong type or outside the enum gives
 * the default and a problem; a number is brought within its bounds (rounded
 * down when whole), as the settings editor's schema asks.
 */
export function checkSetting<N extends SettingName>(name: N, raw: unknown): CheckedSetting<N> {
  const spec: SettingSpec = SETTINGS[name];
  const fallback = (problem: string) => ({ value: spec.default as SettingValue<N>, problem: `${settingId(name)} ${problem}` });
  if (raw === undefined || raw === null) return { value: spec.default as SettingValue<N> };
  switch (spec.type) {
    case "boolean":
      return typeof raw === "boolean" ? { value: raw as SettingValue<N> } : fallback("must be true or false");
    case "string":
      return spec.enum.includes(raw as string) ? { value: raw as SettingValue<N> } : fallback(`must be ${choice(spec.enum)}`);
    case "object":
      return typeof raw === "object" && !Array.isArray(raw)
        ? { value: raw as SettingValue<N> }
        : fallback(`must map ${spec.names} to ${choice(spec.values)}`);
    case "number": {
      if (typeof raw !== "number" || !Number.isFinite(raw)) return fallback("must be a number");
      if (spec.exclusiveMinimum !== undefined && raw <= spec.exclusiveMinimum)
        return fallback(`must be a number above ${spec.exclusiveMinimum}`);
      let n = spec.whole ? Math.floor(raw) : raw;
      if (spec.minimum !== undefined) n = Math.max(spec.minimum, n);
      if (spec.maximum !== undefined) n = Math.min(spec.maximum, n);
      return { value: n as SettingValue<N> };
    }
  }
}

/** `"designs" or "off"`, `"builtin", "locust" or "ask"`. */
function choice(names: readonly string[]): string {
  const quoted = names.map((n) => `"${n}"`);
  return quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(", ")} or ${quoted[quoted.length - 1]}`;
}

/**
 * A setting's raw value inside the `tableDesign` section as the language
 * server receives it: nested (`{ stress: { engine } }`), or with dotted keys
 * (`{ "stress.engine": … }`) as a client may flatten them.
 */
export function sectionValue(section: unknown, name: SettingName): unknown {
  if (typeof section !== "object" || section === null) return undefined;
  const flat = (section as Record<string, unknown>)[name];
  if (flat !== undefined) return flat;
  let at: unknown = section;
  for (const part of name.split(".")) {
    if (typeof at !== "object" || at === null) return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}

/**
 * The analysis options from the settings, read as the CLI reads its flags
 * (`resolveOptions`: the same checks, the same sentences), each named by its
 * setting's id. `read` gives a setting's raw value.
 */
export function analysisSettings(read: (name: SettingName) => unknown): { options: AnalysisOptions; problems: string[] } {
  return resolveOptions(
    {
      service: read("service"),
      partitionTargetEntitiesPerSecond: read("partitionTargetEntitiesPerSecond"),
      rules: read("rules"),
      testFiles: read("typescript.testFiles"),
    },
    {
      service: settingId("service"),
      target: settingId("partitionTargetEntitiesPerSecond"),
      rules: settingId("rules"),
      testFiles: settingId("typescript.testFiles"),
    },
  );
}

/** package.json's `contributes.configuration`, generated from `SETTINGS` (`npm run docs:settings`). */
export function configurationManifest(): { title: string; properties: Record<string, unknown> } {
  const properties: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(SETTINGS) as Array<[SettingName, SettingSpec]>) {
    const { description, markdownDescription } = spec;
    const text = { ...(description ? { description } : {}), ...(markdownDescription ? { markdownDescription } : {}) };
    switch (spec.type) {
      case "string":
        properties[settingId(name)] = {
          type: "string",
          enum: spec.enum,
          ...(spec.enumDescriptions ? { enumDescriptions: spec.enumDescriptions } : {}),
          default: spec.default,
          ...text,
        };
        break;
      case "number": {
        const { minimum, maximum, exclusiveMinimum } = spec;
        const bounds = { minimum, maximum, exclusiveMinimum };
        properties[settingId(name)] = {
          type: "number",
          default: spec.default,
          ...Object.fromEntries(Object.entries(bounds).filter(([, v]) => v !== undefined)),
          ...text,
        };
        break;
      }
      case "boolean":
        properties[settingId(name)] = { type: "boolean", default: spec.default, ...text };
        break;
      case "object":
        properties[settingId(name)] = {
          type: "object",
          default: spec.default,
          additionalProperties: { type: "string", enum: spec.values },
          ...text,
        };
    }
  }
  return { title: "Table Design", properties };
}

/** `pkg` with its `contributes.configuration` as the registry says (the rest kept as it is). */
export function withConfigurationManifest<P extends { contributes?: Record<string, unknown> }>(pkg: P): P {
  return { ...pkg, contributes: { ...pkg.contributes, configuration: configurationManifest() } };
}

/** `a`, `b` or `c`, each in backquotes. */
function codes(names: readonly string[]): string {
  const quoted = names.map((n) => `\`${n}\``);
  return quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(", ")} or ${quoted[quoted.length - 1]}`;
}

/** A setting's default as the README says it. */
function shownDefault(spec: SettingSpec): string {
  switch (spec.type) {
    case "string":
      return `${codes(spec.enum)}; default \`${spec.default}\``;
    case "number":
      return `default ${formatCount(spec.default)}`;
    case "boolean":
      return `default ${spec.default ? "on" : "off"}`;
    case "object":
      return `${spec.names} mapped to ${codes(spec.values)}`;
  }
}

/** The README's sentence: every setting with its choices or default, in the registry's order. */
export function readmeSettingsSentence(): string {
  const items = (Object.entries(SETTINGS) as Array<[SettingName, SettingSpec]>).map(
    ([name, spec]) => `\`${name}\` (${shownDefault(spec)})`,
  );
  return `Settings (prefix \`${SECTION}.\`; the Settings editor describes each): ${items.join(", ")}.`;
}

const START = "<!-- settings: generated by npm run docs:settings -->";
const END = "<!-- /settings -->";

/** `readme` with the text between the settings markers replaced by the current sentence. */
export function withReadmeSettings(readme: string): string {
  const from = readme.indexOf(START);
  const to = readme.indexOf(END);
  if (from < 0 || to < from) throw new Error(`README.md has no ${START} … ${END} section`);
  return `${readme.slice(0, from + START.length)}\n${readmeSettingsSentence()}\n${readme.slice(to)}`;
}
