/**
 * The live side of a migration test (test/integration/migrate.test.ts and
 * `npm run bench` section migrate): readings seeded into the old table, an
 * application writing through the generated dual-write module at a fixed
 * rate (inserts, updates, deletes) whose log is the truth, `tdl migrate run`
 * killed (SIGKILL) at random moments and run again until it finishes, and
 * the check of the new tables against the log.
 */
import { spawn } from "node:child_process";
import type { TableClient, TableEntity } from "@azure/data-tables";

export const METRICS = ["temperature", "humidity", "pressure"] as const;

export interface Reading {
  DeviceId: string;
  At: Date;
  Metric: (typeof METRICS)[number];
  Value: number;
}
export type Clients = Record<"old" | "Readings" | "ReadingsByMetric", TableClient>;
export interface DualWrites {
  writeReadings(c: Clients, e: Reading): Promise<void>;
  deleteReadings(c: Clients, e: Reading): Promise<void>;
}

const BASE = Date.UTC(2026, 0, 2);
const device = (i: number) => (i % 40).toString(16).padStart(12, "0");

/** The i-th reading: 40 devices, 37 s apart (about a hundred per hour partition of the old design). */
export function reading(i: number, value = i): Reading {
  return { DeviceId: device(i), At: new Date(BASE + i * 37_000), Metric: METRICS[i % 3], Value: value };
}

export const readingId = (e: Pick<Reading, "DeviceId" | "At">) => `${e.DeviceId}@${e.At.toISOString()}`;

/** Writes readings into the old table in batches of one partition (the old keys module's rows), 8 in flight. */
export async function seedOld(old: TableClient, rows: readonly Reading[], entityRows: (e: Reading) => TableEntity[]): Promise<void> {
  const byPartition = new Map<string, TableEntity[]>();
  for (const e of rows) for (const r of entityRows(e)) byPartition.set(r.partitionKey, [...(byPartition.get(r.partitionKey) ?? []), r]);
  const batches: TableEntity[][] = [];
  for (const list of byPartition.values()) for (let i = 0; i < list.length; i += 100) batches.push(list.slice(i, i + 100));
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < batches.length) await old.submitTransaction(batches[next++].map((e) => ["upsert", e, "Replace"]));
    }),
  );
}

/**
 * An application's write, tried again (up to 5 times) when the service
 * dropped it — no answer, or a 5xx: the dual writes are idempotent (whole
 * replaces, deletes), so a repeat logs the same truth.
 */
async function again(op: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++)
    try {
      return await op();
    } catch (e) {
      const status = (e as { statusCode?: number }).statusCode;
      if (attempt >= 5 || (status !== undefined && status < 500)) throw e;
      await new Promise((r) => setTimeout(r, 200 * attempt));
    }
}

/** The application: one operation at a time at `perSecond`, each logged once it has returned. */
export class DualWriter {
  /** Each entity's last value, or "deleted": what the new tables must hold at the end. */
  readonly truth = new Map<string, number | "deleted">();
  ops = 0;
  private writing = true;
  private done?: Promise<void>;

  constructor(
    private readonly dual: DualWrites,
    private readonly clients: Clients,
    private readonly live: Reading[],
    private readonly random: () => number,
    private readonly perSecond: number,
  ) {
    for (const e of live) this.truth.set(readingId(e), e.Value);
  }

  start(): void {
    let next = this.live.length;
    this.done = (async () => {
      const started = performance.now();
      while (this.writing) {
        const roll = this.random();
        if (roll < 0.4 && this.live.length) {
          const e = this.live[Math.floor(this.random() * this.live.length)];
          e.Value = 1_000_000 + this.ops;
          await again(() => this.dual.writeReadings(this.clients, e));
          this.truth.set(readingId(e), e.Value);
        } else if (roll < 0.7) {
          const e = reading(next++, 2_000_000 + this.ops);
          await again(() => this.dual.writeReadings(this.clients, e));
          this.live.push(e);
          this.truth.set(readingId(e), e.Value);
        } else if (this.live.length) {
          const [e] = this.live.splice(Math.floor(this.random() * this.live.length), 1);
          await again(() => this.dual.deleteReadings(this.clients, e));
          this.truth.set(readingId(e), "deleted");
        }
        this.ops++;
        const due = started + (this.ops * 1000) / this.perSecond;
        await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
      }
    })();
  }

  async stop(): Promise<void> {
    this.writing = false;
    await this.done;
  }
}

/**
 * Runs the command, SIGKILLed `kills` times at random moments up to
 * `windowMs` after each start, until it exits 0; a run that fails (exit 1:
 * the emulator dropped a request on a loaded machine, say) is run again too,
 * as a user resumes a job, and its first `tdl:` line is kept in `failures`.
 * The last run's output.
 */
export async function runKilled(
  command: string[],
  o: { cwd: string; env: NodeJS.ProcessEnv; kills: number; windowMs: number; random: () => number },
): Promise<{ kills: number; failures: string[]; code: number | null; stdout: string; stderr: string }> {
  let kills = 0;
  const failures: string[] = [];
  for (let attempt = 0; attempt < o.kills + 6; attempt++) {
    const child = spawn(process.execPath, command, { cwd: o.cwd, env: o.env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (d) => (stdout += d));
    child.stderr!.on("data", (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const timer = kills < o.kills ? setTimeout(() => child.kill("SIGKILL"), 300 + o.random() * o.windowMs) : undefined;
    const code = await exited;
    clearTimeout(timer);
    if (code === 1 && failures.length < 3) failures.push(stderr.split("\n").find((l) => l.startsWith("tdl:")) ?? `exit 1`);
    else if (code !== null) return { kills, failures, code, stdout, stderr };
    else kills++;
  }
  return { kills, failures, code: null, stdout: "", stderr: `killed or failed every time: ${failures.join("; ")}` };
}

/** Each entity whose new rows do not hold the log's last word (3 rows with its value, or none once deleted), and rows the log never wrote. */
export async function againstTheLog(clients: Clients, truth: ReadonlyMap<string, number | "deleted">): Promise<string[]> {
  const held = new Map<string, number[]>();
  for (const c of [clients.Readings, clients.ReadingsByMetric])
    for await (const row of c.listEntities<{ DeviceId: string; At: Date; Value: number }>())
      held.set(readingId(row), [...(held.get(readingId(row)) ?? []), row.Value]);
  const wrong: string[] = [];
  for (const [key, value] of truth) {
    const rows = held.get(key) ?? [];
    const right = value === "deleted" ? !rows.length : rows.length === 3 && rows.every((v) => v === value);
    if (!right) wrong.push(`${key}: the log says ${String(value)}, the new tables hold ${rows.join(", ") || "nothing"}`);
  }
  for (const key of held.keys()) if (!truth.has(key)) wrong.push(`${key}: never written`);
  return wrong;
}
