// Reliability: keystrokes at the top of a design without a `service` line, each
// timed to its diagnostics (`node scripts/bench.mjs reliability`).
import * as path from "node:path";
import { readFileSync } from "node:fs";
import { ROOT, Server, pct } from "./shared.mjs";

/** Keystrokes of the reliability section, and the wait after which a keystroke counts as a hang. */
const BLANK_LINES = 40;

const HANG_MS = 10_000;

/**
 * Reliability: Enter pressed 40 times at the top of a design without a
 * `service` line, one keystroke at a time, over JSON-RPC with the real
 * server; each keystroke is timed from the change to its diagnostics. A
 * keystroke that takes longer than HANG_MS ends the measurement (the server
 * is then stopped by its PID).
 */
async function benchReliability() {
  const text = readFileSync(path.join(ROOT, "examples/marathon.tdl"), "utf8").replace(/^service .*\n/m, "");
  const server = new Server(process.execPath, [path.join(ROOT, "dist/server.js"), "--stdio"], "tdl");
  const uri = "file:///bench/typing.tdl";
  await server.init();
  await server.open(uri, text);
  const samples = [];
  let gaveUp = false;
  for (let i = 0; i < BLANK_LINES; i++) {
    let timer;
    const hang = new Promise((resolve) => {
      timer = setTimeout(() => resolve("hang"), HANG_MS);
    });
    const ms = await Promise.race([server.edit(uri, i + 2, 0, 0, "\n"), hang]);
    clearTimeout(timer);
    if (ms === "hang") {
      gaveUp = true;
      break;
    }
    samples.push(ms);
  }
  server.child.kill("SIGKILL");
  server.conn.dispose();
  return { samples, gaveUp };
}

function printReliability({ samples, gaveUp }) {
  console.log(
    `\nReliability: Enter pressed ${BLANK_LINES} times at the top of a design without a 'service' line, edit → diagnostics over JSON-RPC (ms)\n`,
  );
  const worst = gaveUp ? `> ${HANG_MS.toLocaleString("en-US")}` : Math.max(...samples).toFixed(1);
  console.log(`${"measure".padEnd(34)} ${"ours".padStart(12)}   goal`);
  console.log(`${"worst keystroke".padEnd(34)} ${String(worst).padStart(12)}   ≤ 50`);
  if (samples.length) console.log(`${"keystroke p50".padEnd(34)} ${pct(samples, 50).toFixed(1).padStart(12)}`);
  console.log(`${"keystrokes answered".padEnd(34)} ${String(samples.length).padStart(12)}   ${BLANK_LINES}`);
  if (gaveUp)
    console.log(
      `keystroke ${samples.length + 1} had no diagnostics after ${HANG_MS.toLocaleString("en-US")} ms: the server was stopped by its PID`,
    );
}

/** The section. */
export async function run() {
  printReliability(await benchReliability());
}
