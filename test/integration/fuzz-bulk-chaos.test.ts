/**
 * Chaos: `tdl export`, `import --verify`, `copy` and `delete` on the
 * product's emulator (`tdl emulator --scale 0.1`, fidelity on), each killed at random
 * moments by SIGKILL, SIGINT or SIGHUP and run again, with random damage to
 * the job folder between runs (a file cut, a byte changed, a file removed,
 * a range dropped from the manifest, the manifest or the import's checkpoint
 * cut). Each job ends with the exact data, or refuses and names the file
 * that was damaged — never exit 0 with different data. A fixed seed and a
 * few scenarios in `npm test`; `npm run fuzz` runs more (FUZZ_SEED,
 * FUZZ_RUNS, at most 40 here: each scenario runs the CLI a dozen times).
 * Each scenario's runs — signal, moment, exit, last line, damage — are
 * printed as the test's diagnostics, so a seed's story can be read back.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, unlinkSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { AccountSession } from "@runtime/account/session";
import { Checksum } from "@runtime/bulk/checksum";
import type { EntityRow } from "@protocol/entities";
import { FUZZ_SEED, fuzzRuns } from "../helpers/fuzz";

const CLI = path.resolve("dist/cli.js");
const SCENARIOS = Math.min(fuzzRuns(2), 40);

let emulator: ChildProcess;
/** The emulator's connection string (the jobs') and Azurite's behind it (to seed the source without its throttling). */
let connectionString: string;
let s: AccountSession;
const dirs: string[] = [];
const source: EntityRow[] = [];
before(async () => {
  emulator = spawn(process.execPath, [CLI, "emulator", "--port", "0", "--scale", "0.1"], { stdio: ["ignore", "pipe", "ignore"] });
  const first = await new Promise<string>((resolve) => createInterface({ input: emulator.stdout! }).once("line", resolve));
  const started = JSON.parse(first) as {
    connectionString: string;
    tableEndpoint: string;
    upstreamEndpoint: string;
    fidelity: string;
    scale: number;
  };
  assert.deepEqual([started.fidelity, started.scale], ["azure-table", 0.1]);
  connectionString = started.connectionString;
  s = new AccountSession(
    { id: "e", name: "E", kind: "emulator", endpoint: started.tableEndpoint },
    { connectionString },
    { sdkRetries: 0 },
  );
  for (let p = 0; p < 24; p++)
    for (let r = 0; r < 50; r++)
      source.push({
        partitionKey: `p${String(p).padStart(2, "0")}`,
        rowKey: `r${String(r).padStart(2, "0")}`,
        properties: {
          n: { type: "Int64", value: String(BigInt(p) * 10n ** 15n + BigInt(r)) },
          s: { type: "String", value: "é😀'\u2028".repeat(5) },
        },
      });
  const upstreamConnection = connectionString.replace(started.tableEndpoint, started.upstreamEndpoint);
  const upstream = new AccountSession(
    { id: "u", name: "U", kind: "emulator", endpoint: started.upstreamEndpoint },
    { connectionString: upstreamConnection },
  );
  await upstream.createTable("Source");
  await upstream.upsertRows("Source", source);
});
after(async () => {
  if (emulator && emulator.exitCode === null) {
    const exited = new Promise((resolve) => emulator.once("exit", resolve));
    emulator.kill("SIGINT");
    await exited;
  }
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** mulberry32: a small seeded generator, so a failing scenario replays from its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  killed: boolean;
  stderr: string;
}

/** Runs tdl, sending `kill` after `afterMs` when given. */
function tdl(args: string[], kill?: { signal: NodeJS.Signals; afterMs: number }): Promise<Run> {
  const child = spawn(process.execPath, [CLI, ...args, "--connection-string-env", "TDL_CHAOS"], {
    env: { ...process.env, TDL_CHAOS: connectionString },
  });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  child.stdout.resume();
  let killed = false;
  const timer = kill && setTimeout(() => ((killed = true), child.kill(kill.signal)), kill.afterMs);
  return new Promise((resolve) =>
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, killed, stderr });
    }),
  );
}

const expected = (rows: EntityRow[]) => {
  const sum = new Checksum();
  for (const r of rows) sum.add(r);
  return { count: sum.count, checksum: sum.hex };
};

async function tableSum(table: string): Promise<{ count: number; checksum: string }> {
  const sum = new Checksum();
  let token: string | undefined;
  do {
    const page = await s.page(table, { continuationToken: token });
    for (const e of page.entities) sum.add(e);
    token = page.continuationToken;
  } while (token);
  return { count: sum.count, checksum: sum.hex };
}

/** Damages one file of the folder at random; returns its path (undefined: the dice said no damage). */
function damage(dir: string, rand: () => number): string | undefined {
  if (rand() < 0.5) return undefined;
  const files = readdirSync(dir).filter((f) => /^(range-\d+\.jsonl|manifest\.json|import\..*\.json|copy-previous\.json)$/.test(f));
  if (!files.length) return undefined;
  const file = path.join(dir, files[Math.floor(rand() * files.length)]);
  const size = statSync(file).size;
  const how = Math.floor(rand() * 4);
  if (how === 0) truncateSync(file, Math.floor(size * rand()));
  else if (how === 1 && size > 0) {
    const bytes = readFileSync(file);
    const at = Math.floor(rand() * size);
    bytes[at] = bytes[at] === 0x31 ? 0x32 : 0x31;
    writeFileSync(file, bytes);
  } else if (how === 2) unlinkSync(file);
  else if (file.endsWith("manifest.json")) {
    // A manifest damaged before (cut, a byte changed) may no longer parse: then it is cut to nothing.
    let m: { ranges?: unknown[] } | undefined;
    try {
      m = JSON.parse(readFileSync(file, "utf8")) as { ranges?: unknown[] };
    } catch {
      m = undefined;
    }
    if (!Array.isArray(m?.ranges)) truncateSync(file, 0);
    else {
      if (m.ranges.length > 1) m.ranges.splice(Math.floor(rand() * m.ranges.length), 1);
      writeFileSync(file, JSON.stringify(m));
    }
  } else truncateSync(file, 0);
  return file;
}

/**
 * Runs `args` until it ends on its own, killing it at random moments and
 * damaging the folder between runs. Returns how it ended: done (exit 0), or
 * refused naming a damaged file (the scenario then stops).
 */
async function chaos(args: string[], dir: string | undefined, rand: () => number, log: string[]): Promise<"done" | "refused"> {
  const damaged = new Set<string>();
  for (let run = 0; run < 12; run++) {
    const last = run >= 8;
    const kill = last
      ? undefined
      : { signal: (["SIGKILL", "SIGINT", "SIGHUP"] as const)[Math.floor(rand() * 3)], afterMs: 300 + rand() * 2700 };
    const r = await tdl(args, kill);
    log.push(
      `${args[0]} run ${run}: ${kill ? `${kill.signal} at ${Math.round(kill.afterMs)} ms` : "to the end"} → ${r.code ?? r.signal} ${r.stderr.trim().split("\n").pop()?.slice(0, 300) ?? ""}`,
    );
    if (r.code === 0) return "done";
    assert.ok(r.code !== 3, `an internal failure: ${r.stderr}\n${log.join("\n")}`);
    if (!r.killed || r.code === 2) {
      // Not stopped by us: a refusal, which must name a file that was damaged.
      const named = [...damaged].some((f) => r.stderr.includes(f) || r.stderr.includes(path.basename(f)));
      assert.ok(named, `refused without naming a damaged file (${[...damaged].join(", ") || "none"}): ${r.stderr}\n${log.join("\n")}`);
      return "refused";
    }
    if (dir && existsSync(dir) && !last) {
      const d = damage(dir, rand);
      if (d) {
        damaged.add(d);
        log.push(`  damaged ${path.basename(d)}`);
      }
    }
  }
  assert.fail(`never finished:\n${log.join("\n")}`);
}

test(`chaos: export, import --verify, copy and delete killed and damaged at random end exact or refuse by name (seed ${FUZZ_SEED}, ${SCENARIOS} scenarios)`, async (t) => {
  const want = expected(source);
  for (let i = 0; i < SCENARIOS; i++) {
    const rand = random(FUZZ_SEED + i);
    const log: string[] = [`scenario ${i} (seed ${FUZZ_SEED + i})`];
    const dir = mkdtempSync(path.join(os.tmpdir(), "tdl-chaos-"));
    dirs.push(dir);
    const exported = await chaos(["export", "--table", "Source", "--out", dir, "--rate", "max"], dir, rand, log);
    if (exported === "done") {
      const m = JSON.parse(readFileSync(path.join(dir, "manifest.json"), "utf8")) as { count: number; checksum: string };
      assert.deepEqual({ count: m.count, checksum: m.checksum }, want, `an export exited 0 with other data\n${log.join("\n")}`);
      // The folder may have been damaged after the last checkpoint and healed by the resume: the import checks it whole.
      const target = `Imp${i}`;
      const imported = await chaos(["import", dir, "--table", target, "--rate", "max", "--verify"], dir, rand, log);
      if (imported === "done") assert.deepEqual(await tableSum(target), want, `an import exited 0 with other data\n${log.join("\n")}`);
    }
    const copyDir = mkdtempSync(path.join(os.tmpdir(), "tdl-chaos-copy-"));
    dirs.push(copyDir);
    const copied = await chaos(
      ["copy", "--table", "Source", "--to-table", `Copy${i}`, "--dir", copyDir, "--if-exists", "replace"],
      copyDir,
      rand,
      log,
    );
    if (copied === "done") {
      assert.deepEqual(await tableSum(`Copy${i}`), want, `a copy exited 0 with other data\n${log.join("\n")}`);
      const deleted = await chaos(
        ["delete", "--table", `Copy${i}`, "--filter", "PartitionKey ge 'p05'", "--yes", "--log", path.join(copyDir, "deleted.jsonl")],
        undefined,
        rand,
        log,
      );
      assert.equal(deleted, "done");
      const left = await tableSum(`Copy${i}`);
      assert.deepEqual(
        left,
        expected(source.filter((r) => r.partitionKey < "p05")),
        `a delete exited 0 with other data (${left.count} left)\n${log.join("\n")}`,
      );
      // The copy again, over the same folder: a refresh that reads the source anew and writes back what the delete took.
      const again = await chaos(
        ["copy", "--table", "Source", "--to-table", `Copy${i}`, "--dir", copyDir, "--if-exists", "replace"],
        copyDir,
        rand,
        log,
      );
      if (again === "done")
        assert.deepEqual(await tableSum(`Copy${i}`), want, `a copy run again exited 0 with other data\n${log.join("\n")}`);
    }
    t.diagnostic(log.join("\n"));
  }
});
