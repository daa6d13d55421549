/**
 * The README.md of an exported folder: what each file is, how to run the
 * test here (one process, or a master and workers on several machines) and
 * on Azure Load Testing, the settings it reads from the environment, the
 * sizing, and how the records come back into tdl's report.
 */
import { secretNames, testIdOf, type AzureAuth } from "./azure";
import type { LocustPlan } from "./plan";
import { sizingText } from "./sizing";
import { formatCount } from "@core/text/words";

export function exportReadme(p: LocustPlan, auth: AzureAuth, keysFile: string): string {
  const design = p.design.file.split(/[\\/]/).pop() ?? p.design.file;
  const secrets = secretNames(auth);
  const load =
    p.rate > 0
      ? `${formatCount(p.rate)} calls/s in all (an open load, split evenly over the workers)`
      : `as fast as ${p.users} users per worker are answered (a closed load)`;
  const credential =
    auth.kind === "sas"
      ? [
          "`secrets/` holds one table SAS per engine (`TDL_SAS_0.txt`, …), made by tdl with the account key it was",
          "given: each is for this table only, reads, adds, updates and deletes entities, and expires; the key itself is",
          "in no file. Put them in the Key Vault and delete the folder:",
          "",
          "```sh",
          ...secrets.map(
            (s) => `az keyvault secret set --vault-name ${auth.vault ?? "VAULT"} --name ${s.vault} --file secrets/${s.env}.txt`,
          ),
          "rm -r secrets",
          "```",
          "",
          "A table SAS cannot create or delete a table: create it before the run and delete it after, signed in as",
          "yourself (`az storage table create --name " + p.table + " --account-name ACCOUNT --auth-mode login`, then",
          "`az storage table delete …`).",
        ]
      : [
          "The run signs with SharedKeyLite: put the account key in the Key Vault as `tdl-account-key`",
          "(`az keyvault secret set --vault-name VAULT --name tdl-account-key --value …`). With it and",
          "`TDL_CREATE_TABLE=1` (set in loadtest.yaml) the master creates the table, with tdl's stress marker, when",
          "the test starts and deletes it when it stops; `tdl stress --cleanup` removes one a broken run left.",
        ];
  return [
    `# Stress test of ${p.design.table} on Locust`,
    "",
    `Exported by \`tdl stress --export locust\` from \`${design}\`: the ${p.mode} workload \`tdl stress\` runs, ${load},`,
    `for ${Math.round(p.durationMs / 1000)} s after a preload of ${p.preload} entities, into the table \`${p.table}\` at \`${p.endpoint}\`.`,
    "",
    "## Files",
    "",
    "| file | what it is |",
    "| --- | --- |",
    "| `locustfile.py` | Locust's entry point: the user class, the run's start and stop |",
    "| `tdl_locust.py` | the runtime: entities, calls, signing, the guide's back-off on 503 ServerBusy, pacing, records |",
    "| `tdl_workload.py` | this design's workload: property domains, work items and rates, the queries' key bounds |",
    `| \`${keysFile}\` | the table's key builders and parsers (\`tdl codegen --lang python\`), exactly as tdl renders keys |`,
    "| `tdl-locust.conf` | Locust's settings: headless, users, run time |",
    "| `loadtest.yaml` | the Azure Load Testing test definition (`az load test create`) |",
    "| `run.json` | what `tdl stress --ingest` needs to build the report (no secret) |",
    ...(auth.kind === "sas" ? ["| `secrets/` | one table SAS per engine, for the Key Vault (see below) |"] : []),
    "",
    "Each worker writes `tdl-records/<host>-<pid>.jsonl`: one JSON line per second per partition it touched",
    "(entities served, throttled, new), and per operation (calls, errors, retries, latencies) and pattern.",
    "Requests are named after their operation and partition (`insert <key>`): the first 16 partitions each",
    "worker meets by name, the rest as `(other partitions)`.",
    "",
    "## Run it here",
    "",
    "Locust runs with the Python it was installed for (Debian: `apt-get install python3-locust`). One process:",
    "",
    "```sh",
    auth.kind === "sas"
      ? `TDL_SAS=$(cat secrets/TDL_SAS_0.txt) locust -f locustfile.py --config tdl-locust.conf`
      : "TDL_ACCOUNT_KEY=… TDL_CREATE_TABLE=1 locust -f locustfile.py --config tdl-locust.conf",
    "tdl stress --ingest .",
    "```",
    "",
    "A master and workers (on this machine or others; each worker needs this folder and its credential):",
    "",
    "```sh",
    `locust -f locustfile.py --config tdl-locust.conf --master --expect-workers ${p.workers}`,
    `TDL_WORKERS=${p.workers} locust -f locustfile.py --worker --master-host MASTER   # once per worker`,
    "```",
    "",
    "`tdl stress --engine locust --workers N` does all of this on this machine: it creates and deletes the",
    "table itself, gives the workers a SAS through the environment, and prints the report.",
    "",
    "## Run it on Azure Load Testing",
    "",
    ...credential,
    "",
    "```sh",
    "az load test create --load-test-resource RESOURCE --resource-group GROUP --load-test-config-file loadtest.yaml",
    `az load test-run create --load-test-resource RESOURCE --resource-group GROUP --test-id ${testIdOf(p)} --test-run-id run1`,
    "```",
    "",
    "The test fails when more than 1 % of the requests fail (every 503 ServerBusy counts) or the p99 latency",
    `exceeds ${Math.round(p.p99Ms)} ms. To get the records back, give the run \`TDL_RECORDS_URL\` (a blob container URL with a`,
    "SAS that may write, as another Key Vault secret): each worker puts its file there when it stops. Download",
    "them into `tdl-records/` here and run `tdl stress --ingest .`.",
    "",
    "## Sizing",
    "",
    p.sizing
      ? sizingText(p.sizing, "engines") + (p.sizing.workers !== p.workers ? ` This export runs ${p.workers} engines, as asked.` : "")
      : `${p.workers} engine(s), as asked.`,
    "",
    "## Settings (environment)",
    "",
    "`TDL_ENDPOINT`, `TDL_TABLE` (where), `TDL_SAS` or `TDL_SAS_<worker index>` (a table SAS), `TDL_ACCOUNT` and",
    "`TDL_ACCOUNT_KEY` (SharedKeyLite), `TDL_CREATE_TABLE=1` (create and delete the table; needs the key),",
    "`TDL_WORKERS` (how many share the rate), `TDL_RATE` (calls/s in all; 0 for a closed load), `TDL_DURATION`",
    "(seconds), `TDL_PRELOAD`, `TDL_START_AT` (a Unix time the load starts at), `TDL_RECORDS` (the records'",
    "folder), `TDL_RECORDS_URL`. Credentials are read from the environment only and never logged.",
    "",
  ].join("\n");
}
