// `npm run bench`: every section in turn; `node scripts/bench.mjs SECTION`
// runs one (`typescript` runs `typescript-large` after it, as it always
// has). Each section is a file in scripts/bench/ with a `run()`; what they
// share is scripts/bench/shared.mjs. The bundles are built first: the
// sections measure dist/, as users run it.
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { ROOT } from "./bench/shared.mjs";
import * as latency from "./bench/latency.mjs";
import * as typescript from "./bench/typescript.mjs";
import * as typescriptLarge from "./bench/typescript-large.mjs";
import * as accuracy from "./bench/accuracy.mjs";
import * as stress from "./bench/stress.mjs";
import * as locust from "./bench/locust.mjs";
import * as bulk from "./bench/bulk.mjs";
import * as fidelity from "./bench/fidelity.mjs";
import * as reliability from "./bench/reliability.mjs";
import * as infer from "./bench/infer.mjs";
import * as logs from "./bench/logs.mjs";
import * as mcp from "./bench/mcp.mjs";
import * as throttled from "./bench/throttled.mjs";
import * as rewrites from "./bench/rewrites.mjs";
import * as memory from "./bench/memory.mjs";
import * as realCodeTime from "./bench/real-code-time.mjs";
import * as keyWidth from "./bench/key-width.mjs";
import * as migrate from "./bench/migrate.mjs";
import * as fixes from "./bench/fixes.mjs";

/** Each section by name, with what it runs when named alone. */
const SECTIONS = {
  latency: [latency],
  typescript: [typescript, typescriptLarge],
  "typescript-large": [typescriptLarge],
  accuracy: [accuracy],
  rewrites: [rewrites],
  memory: [memory],
  "real-code-time": [realCodeTime],
  "key-width": [keyWidth],
  stress: [stress],
  locust: [locust],
  bulk: [bulk],
  fidelity: [fidelity],
  reliability: [reliability],
  infer: [infer],
  logs: [logs],
  throttled: [throttled],
  mcp: [mcp],
  migrate: [migrate],
  fixes: [fixes],
};

/** The whole bench, in its order. */
const ALL = [
  latency,
  typescript,
  typescriptLarge,
  memory,
  keyWidth,
  accuracy,
  realCodeTime,
  rewrites,
  stress,
  locust,
  bulk,
  fidelity,
  reliability,
  infer,
  logs,
  throttled,
  mcp,
  migrate,
  fixes,
];

const asked = process.argv.slice(2);
const unknown = asked.filter((a) => !(a in SECTIONS));
if (unknown.length) {
  console.error(`bench: no section '${unknown[0]}'; the sections are ${Object.keys(SECTIONS).join(", ")}`);
  process.exit(2);
}
const build = spawnSync(process.execPath, [path.join(ROOT, "esbuild.mjs")], { cwd: ROOT, stdio: "inherit" });
if (build.status !== 0) process.exit(1);
for (const section of asked.length ? SECTIONS[asked[0]] : ALL) await section.run();
