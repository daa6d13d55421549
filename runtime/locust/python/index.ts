/**
 * The Python files every Locust export carries, whatever the design:
 * `locustfile.py` (Locust's entry point) and `tdl_locust.py` (the runtime:
 * entities, calls, signing, back-off, pacing, records), assembled from the
 * parts beside this file. The design's own files are `tdl_workload.py`
 * (../workload.ts) and `<table>_keys.py` (`tdl codegen --lang python`).
 */
import { PY_CALLS } from "./calls";
import { PY_ENGINE } from "./engine";
import { PY_GENERATOR } from "./generator";
import { PY_HTTP } from "./http";
import { PY_LOCUST } from "./locust";
import { PY_LOCUSTFILE } from "./locustfile";
import { PY_READS } from "./reads";
import { PY_RECORDS } from "./records";

/** The runtime module's name (what the locustfile and the workload import). */
export const RUNTIME_MODULE = "tdl_locust";

/** `tdl_locust.py`. */
export function runtimeText(version: string): string {
  const head = `# The runtime of a Locust stress test exported by "tdl stress --export locust" (Table Design Assistant ${version}).\n# It needs only Locust (and its gevent). Do not edit: export again.\n`;
  return head + [PY_GENERATOR, PY_HTTP, PY_CALLS, PY_READS, PY_RECORDS, PY_ENGINE, PY_LOCUST].join("\n\n");
}

/** `locustfile.py`. */
export function locustfileText(): string {
  return PY_LOCUSTFILE;
}
