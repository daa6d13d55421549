/**
 * `tdl stress --cleanup [--older-than 10m] (--emulator | --connection-string-env VAR
 * [--yes-real-account])`: lists the account's `stress…` tables, deletes the
 * ones that carry a stress test's marker and are old enough, and prints
 * what it removed and what it kept, and why. A table without the marker is
 * never deleted; a real account's tables only with `--yes-real-account`.
 */
import { makeClients, describeLeftover, findLeftovers, removeLeftovers, endpointHost } from "@runtime";
import type { CliResult } from "../../output";
import type { StressTarget } from "./target";
import { EXIT, inContext } from "../../failure";

export async function cleanupCommand(
  target: StressTarget,
  olderThanMs: number,
  olderThanText: string,
  confirmed: boolean,
): Promise<CliResult> {
  const host = endpointHost(target.connection.endpoint);
  const clients = makeClients(target.connection, target.secret);
  const abort = new AbortController();
  const onSignal = () => abort.abort();
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    let tables;
    try {
      tables = await findLeftovers(clients, target.connection.endpoint, { olderThanMs, signal: abort.signal });
    } catch (e) {
      if (abort.signal.aborted) return { stdout: "", stderr: "tdl: cancelled before anything was deleted\n", exitCode: EXIT.failed };
      throw inContext(`could not list the stress tables at ${host}`, e);
    }
    const now = Date.now();
    const lines = [`${tables.length} stress… table${tables.length === 1 ? "" : "s"} at ${host}`];
    const removable = tables.filter((t) => !t.keep);
    for (const t of tables.filter((x) => x.keep)) {
      lines.push(
        `  kept     ${describeLeftover(t, now)}: ${t.keep}${t.keep?.includes("younger") ? ` (--older-than ${olderThanText})` : ""}`,
      );
    }
    if (removable.length && !target.local && !confirmed) {
      for (const t of removable) lines.push(`  would remove ${describeLeftover(t, now)}`);
      return {
        stdout: lines.join("\n") + "\n",
        stderr: `tdl: ${host} is not an emulator: add --yes-real-account to delete ${removable.length === 1 ? "this table" : `these ${removable.length} tables`}\n`,
        exitCode: EXIT.usage,
      };
    }
    const results = await removeLeftovers(clients, target.connection.endpoint, removable, { signal: abort.signal });
    let failed = 0;
    for (const r of results) {
      const t = removable.find((x) => x.table === r.table)!;
      if (r.removed) lines.push(`  removed  ${describeLeftover(t, now)}`);
      else {
        failed++;
        lines.push(`  FAILED   ${describeLeftover(t, now)}: ${r.reason}`);
      }
    }
    const removed = results.filter((r) => r.removed).length;
    const skipped = removable.length - results.length;
    lines.push(
      `removed ${removed}, kept ${tables.length - removable.length}${failed ? `, failed ${failed}` : ""}${skipped ? `, not tried ${skipped} (cancelled)` : ""}`,
    );
    return {
      stdout: lines.join("\n") + "\n",
      stderr:
        failed || skipped ? `tdl: ${failed + skipped} leftover stress table${failed + skipped === 1 ? "" : "s"} remain at ${host}\n` : "",
      exitCode: failed || skipped ? EXIT.failed : EXIT.clean,
    };
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}
