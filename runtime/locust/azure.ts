/**
 * The Azure Load Testing side of an export: `loadtest.yaml`, the test
 * definition `az load test create --load-test-config-file` takes (the
 * engine count sized for the target rate, failure criteria from the
 * targets — the share of failed requests, where every 503 ServerBusy
 * counts, and the p99 latency — and every secret as a Key Vault
 * reference), and `tdl-locust.conf`, Locust's own settings for the run
 * (not `locust.conf`, which every Locust process in the folder would read:
 * a worker refuses a run time).
 */
import type { LocustPlan } from "./plan";

/** Above this share of failed requests the test fails: the stress verdict's share of throttled requests (1 %). */
export const FAILED_SHARE_PERCENT = 1;

export interface AzureAuth {
  /** Per-engine table SAS tokens (TDL_SAS_0…) minted by tdl, or the account key (SharedKeyLite, TDL_ACCOUNT_KEY). */
  kind: "sas" | "shared-key";
  engines: number;
  /** The Key Vault that holds the secrets (its name; a placeholder when not given). */
  vault?: string;
}

/** A YAML scalar in double quotes (JSON's escapes are YAML's). */
const q = (s: string) => JSON.stringify(s);

/** The names of the secrets the run reads, as environment variables and Key Vault secret names. */
export function secretNames(auth: AzureAuth): Array<{ env: string; vault: string }> {
  if (auth.kind === "shared-key") return [{ env: "TDL_ACCOUNT_KEY", vault: "tdl-account-key" }];
  return Array.from({ length: auth.engines }, (_, i) => ({ env: `TDL_SAS_${i}`, vault: `tdl-sas-${i}` }));
}

/** The test's id in Azure Load Testing: 2 to 50 of [a-z0-9_-]. */
export function testIdOf(p: LocustPlan): string {
  return `tdl-${p.design.table}-${p.mode}`
    .toLowerCase()
    .replace(/[^a-z0-9_-]/g, "-")
    .slice(0, 50);
}

export function loadTestYaml(p: LocustPlan, auth: AzureAuth, files: string[]): string {
  const vault = auth.vault ?? "YOUR-KEY-VAULT";
  const id = testIdOf(p);
  const env: Array<[string, string]> = [
    ["TDL_ENDPOINT", p.endpoint],
    ["TDL_TABLE", p.table],
    ["TDL_WORKERS", String(p.workers)],
    ["TDL_RATE", String(p.rate)],
    ["TDL_DURATION", String(Math.round(p.durationMs / 1000))],
    ["TDL_PRELOAD", String(p.preload)],
    ...(auth.kind === "shared-key"
      ? ([
          ["TDL_ACCOUNT", p.account ?? ""],
          ["TDL_CREATE_TABLE", "1"],
        ] as Array<[string, string]>)
      : []),
  ];
  const lines = [
    "# Azure Load Testing: az load test create --load-test-resource RESOURCE --resource-group GROUP --load-test-config-file loadtest.yaml",
    "# Written by tdl stress --export locust; README.md says what to put in the Key Vault first.",
    "version: v0.1",
    `testId: ${id}`,
    `displayName: ${q(`${p.design.table} · ${p.mode} · tdl stress`)}`,
    `description: ${q(`Partition stress test of ${p.design.table} from ${p.design.file.split(/[\\/]/).pop()}`.slice(0, 100))}`,
    "testType: Locust",
    "testPlan: locustfile.py",
    `engineInstances: ${p.workers}`,
    "configurationFiles:",
    ...files.map((f) => `  - ${f}`),
    "properties:",
    "  userPropertyFile: tdl-locust.conf",
    "env:",
    ...env.flatMap(([name, value]) => [`  - name: ${name}`, `    value: ${q(value)}`]),
    "secrets:",
    // Quoted as every other value: a vault name is the user's text.
    ...secretNames(auth).flatMap((s) => [`  - name: ${s.env}`, `    value: ${q(`https://${vault}.vault.azure.net/secrets/${s.vault}`)}`]),
    "failureCriteria:",
    "  clientMetrics:",
    `    - percentage(error) > ${FAILED_SHARE_PERCENT}`,
    `    - p99(response_time_ms) > ${Math.round(p.p99Ms)}`,
    "autoStop:",
    "  errorPercentage: 90",
    "  timeWindow: 60",
    "",
  ];
  return lines.join("\n");
}

/** Locust's settings: headless, every user at once, the run's length plus time for the preload and the drain. */
export function locustConf(p: LocustPlan): string {
  const users = p.users * p.workers;
  return [
    "# Locust's settings for this run (locust --config tdl-locust.conf; Azure Load Testing reads it as the user property file).",
    "headless = true",
    `users = ${users}`,
    `spawn-rate = ${users}`,
    `run-time = ${Math.ceil(p.durationMs / 1000) + 30}s`,
    "stop-timeout = 5",
    "",
  ].join("\n");
}
