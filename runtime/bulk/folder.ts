/**
 * A job folder that proves itself before it is used. The manifest names the
 * export's source (the account's host, the table, the service profile, when
 * it started) and each range's entity count, byte length and checksum: a
 * resume against another source is refused; a resume, an import or a copy
 * reads every range file and refuses, naming the file, when it is missing,
 * shorter (or, finished, longer) than the manifest says or holds other
 * entities; and the ranges must cover the key space once, so a range taken
 * out of the manifest is a refusal, not a silent gap. A lock file names the
 * job writing the folder; a lock whose process is gone (killed) is stale
 * and taken over.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createInterface } from "node:readline";
import { InputError, RefusedError } from "@core/errors";
import { REFUSE_ALL } from "@protocol/transfer";
import { readJsonObject } from "../transfer/json";
import { Problems } from "../transfer/records";
import { typeRecord } from "../transfer/typing";
import { Checksum } from "./checksum";
import { MANIFEST, Manifest, RangeState } from "./manifest";

/** A job folder whose files do not match its manifest: `file` is the one to look at. */
export class DamagedFolderError extends InputError {
  constructor(
    readonly file: string,
    why: string,
    advice = "the folder does not hold what its manifest says (export again into a new folder)",
  ) {
    super(`${file} ${why}: ${advice}`);
  }
}

/** Where an export reads from; what a resume must read from too. */
export interface SourceOf {
  source: string;
  table: string;
  service?: string;
}

/** Refuses an export's resume (or reuse) against another source than the one its manifest names. */
export function checkSource(dir: string, m: Manifest, want: SourceOf): void {
  const file = path.join(dir, MANIFEST);
  if (m.table !== want.table) throw new InputError(`${file} names the table ${m.table}, not ${want.table}: choose another folder`);
  if (m.source !== want.source)
    throw new InputError(
      `${file} names the source ${m.source}, not ${want.source}: an export is resumed from the account it started on (choose another folder)`,
    );
  if (m.service !== undefined && want.service !== undefined && m.service !== want.service)
    throw new InputError(`${file} names the service profile ${m.service}, not ${want.service}: choose another folder`);
}

/**
 * Reads a range's file up to the bytes its checkpoint names and checks the
 * count and checksum of the entities there; `whole`: the file must end
 * there too (a finished export). Missing with nothing checkpointed is fine.
 */
export async function checkRangeFile(dir: string, r: RangeState, whole: boolean): Promise<void> {
  const file = path.join(dir, r.file);
  if (path.basename(r.file) !== r.file || !/^range-\d+\.jsonl$/.test(r.file))
    throw new DamagedFolderError(path.join(dir, MANIFEST), `names the range file '${r.file.slice(0, 80)}', which an export does not write`);
  let size: number;
  try {
    size = fs.statSync(file).size;
  } catch {
    if (r.bytes === 0 && r.count === 0) return;
    throw new DamagedFolderError(file, `is missing (the manifest says it holds ${r.count} entities)`);
  }
  if (size < r.bytes) throw new DamagedFolderError(file, `is shorter than the manifest says (${size} of ${r.bytes} bytes): it was cut`);
  if (whole && size > r.bytes) throw new DamagedFolderError(file, `is longer than the manifest says (${size} bytes, not ${r.bytes})`);
  if (r.bytes === 0) {
    if (r.count !== 0) throw new DamagedFolderError(file, `holds no entity, and the manifest says ${r.count}`);
    return;
  }
  const sum = new Checksum();
  const lines = createInterface({
    input: fs.createReadStream(file, { encoding: "utf8", start: 0, end: r.bytes - 1 }),
    crlfDelay: Infinity,
  });
  let at = 0;
  for await (const text of lines) {
    at++;
    const problems = new Problems(REFUSE_ALL);
    const row = typeRecord(readJsonObject(text, at, at, problems), problems);
    if (!row || problems.kept.length) throw new DamagedFolderError(`${file}:${at}`, "is not an entity as the export wrote it");
    sum.add(row);
  }
  if (sum.count !== r.count || sum.hex !== r.checksum)
    throw new DamagedFolderError(
      file,
      `holds ${sum.count} entities (checksum ${sum.hex}), ${path.join(dir, MANIFEST)} says ${r.count} (${r.checksum})`,
    );
}

/** The ranges must cover the key space once, in order: from "" to the end, each starting where another ends. */
export function checkCoverage(dir: string, m: Manifest): void {
  const file = path.join(dir, MANIFEST);
  const ranges = [...m.ranges].sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
  let from = "";
  for (const [i, r] of ranges.entries()) {
    if (r.from !== from) throw new DamagedFolderError(file, `has no range from '${from.slice(0, 40)}' (a range is missing from it)`);
    if (r.to === undefined) {
      if (i !== ranges.length - 1) throw new DamagedFolderError(file, "has ranges past the one that reads to the end");
      return;
    }
    from = r.to;
  }
  throw new DamagedFolderError(file, "has no range that reads to the end of the table (a range is missing from it)");
}

/** A finished export, checked whole: its ranges cover the keys, each file holds what the manifest says, the totals add up. */
export async function checkFinished(dir: string, m: Manifest): Promise<void> {
  checkCoverage(dir, m);
  const total = new Checksum();
  for (const r of m.ranges) {
    await checkRangeFile(dir, r, true);
    total.merge(r);
  }
  if (total.count !== m.count || total.hex !== m.checksum)
    throw new DamagedFolderError(
      path.join(dir, MANIFEST),
      `says ${m.count} entities (${m.checksum}), its ranges add up to ${total.count} (${total.hex})`,
    );
}

const LOCK = ".tdl-lock";

/** Whether a process of this machine is alive. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Takes the folder for a job: a lock file naming this process. Another
 * living job's lock is a refusal that names it; the lock of a job that is
 * gone (killed, so it could not remove it) is stale and taken over.
 * Returns the release.
 */
export function lockFolder(dir: string, job: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, LOCK);
  const mine = JSON.stringify({ pid: process.pid, host: os.hostname(), job, since: new Date().toISOString() }) + "\n";
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(file, mine, { flag: "wx" });
      return () => {
        try {
          if (fs.readFileSync(file, "utf8") === mine) fs.unlinkSync(file);
        } catch {
          // Gone already: nothing to release.
        }
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
    let held: { pid?: number; host?: string; job?: string; since?: string } = {};
    try {
      held = JSON.parse(fs.readFileSync(file, "utf8")) as typeof held;
    } catch {
      // Unreadable or half-written: treated as stale below.
    }
    if (typeof held.pid === "number" && held.pid !== process.pid && (held.host !== os.hostname() || alive(held.pid)))
      throw new RefusedError(
        `${dir} is in use by another job (${held.job ?? "a job"}, pid ${held.pid}${held.host !== os.hostname() ? ` on ${held.host}` : ""}, since ${held.since ?? "?"}): wait for it, or stop it first`,
      );
    // Stale: its process is gone.
    fs.rmSync(file, { force: true });
  }
  throw new RefusedError(`${dir} could not be locked: another job keeps taking it`);
}
