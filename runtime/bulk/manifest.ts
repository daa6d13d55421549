/**
 * A bulk export's folder: one JSON-lines file per key range and a manifest
 * that says what each holds — its PartitionKey range, how many entities and
 * their checksum — and, while the job runs, how far each range got. The
 * manifest is the checkpoint: it is rewritten atomically (a temporary file,
 * flushed, then renamed over the old one) after each page, so a crash leaves
 * either the old state or the new one, never half of one. A resumed export
 * cuts each range's file back to the length its checkpoint names and goes on
 * with the continuation token saved with it (the service's tokens do not
 * expire, and unlike "after the last key" they also hold where results are
 * not sorted, as on Cosmos DB for Table).
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { InputError } from "@core/errors";

export const MANIFEST = "manifest.json";
export const MANIFEST_VERSION = 1;

/** One PartitionKey range `[from, to)` of the table (`to` undefined: to the end). */
export interface RangeState {
  index: number;
  from: string;
  to?: string;
  file: string;
  /** Entities written to the file so far, and their checksum (checksum.ts). */
  count: number;
  checksum: string;
  /** Bytes of the file that hold complete entities: a resume truncates to it. */
  bytes: number;
  /** Where the read goes on: the query's filter and the service's continuation token after the last page written. */
  next?: { filter?: string; token: string };
  done: boolean;
}

export interface Manifest {
  version: number;
  table: string;
  /** Where it came from: the endpoint's host, never a credential. */
  source: string;
  /** The source's service profile (azure-table, cosmos-table…); absent in older manifests. */
  service?: string;
  started: string;
  finished?: string;
  ranges: RangeState[];
  /** A key the plan found nothing at or after: where splitting the last range aims (the range itself still reads to the end). */
  ceiling?: string;
  /** The copy refresh this export belongs to: when the last copy's export read the source (copy-refresh.ts). */
  refreshOf?: string;
  /** All ranges together. */
  count: number;
  checksum: string;
  /** The SHA-256 of the rest of the manifest (sealed()): a manifest changed after the job wrote it is refused. */
  seal?: string;
}

/** The SHA-256 of an object's JSON without its `seal`. */
function sealOf(o: object): string {
  return createHash("sha256")
    .update(JSON.stringify({ ...o, seal: undefined }))
    .digest("hex");
}

/**
 * A checkpoint's text with its seal: one byte of a key, a token or a count
 * changed by hand or by a disk would otherwise resume from somewhere else,
 * or skip a range, and still end with exit 0.
 */
export function sealed(o: object): string {
  return JSON.stringify({ ...o, seal: sealOf(o) }, null, 1) + "\n";
}

/** Refuses, naming the file, a checkpoint whose seal does not match what it holds (one without a seal is from an older version). */
export function checkSeal(file: string, o: { seal?: string }): void {
  if (o.seal !== undefined && o.seal !== sealOf(o))
    throw new InputError(`${file} does not match its seal: it was changed after the job wrote it (start the job again in a new folder)`);
}

/** Writes `data` to `file` so that a crash leaves either the old file or the new one. */
export function writeAtomically(file: string, data: string): void {
  const tmp = `${file}.tmp`;
  const fd = fs.openSync(tmp, "w");
  try {
    fs.writeSync(fd, data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
}

/** writeAtomically off the event loop: the readers of an export go on while a checkpoint reaches the disk. */
async function writeAtomicallyAsync(file: string, data: string): Promise<void> {
  const tmp = `${file}.tmp`;
  const handle = await fs.promises.open(tmp, "w");
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.promises.rename(tmp, file);
}

/**
 * A running job's manifest checkpoints, one write at a time: `save()`
 * settles once a write that began after the call has reached the disk, and
 * the calls made while a write is on its way share the next one (each
 * reader's checkpoint used to be a write of its own, blocking every reader).
 */
export class ManifestSaver {
  private next?: Promise<void>;
  private current?: Promise<void>;

  constructor(
    private readonly dir: string,
    private readonly manifest: Manifest,
  ) {}

  save(): Promise<void> {
    this.next ??= (async () => {
      await this.current?.catch(() => undefined);
      // From here on a new call waits for the write after this one: this one may have serialized before its change.
      this.next = undefined;
      const write = writeAtomicallyAsync(path.join(this.dir, MANIFEST), sealed(this.manifest));
      this.current = write;
      await write;
    })();
    return this.next;
  }
}

/** The folder's manifest, or undefined when there is none; a manifest that is not one is an input error. */
export function loadManifest(dir: string): Manifest | undefined {
  const file = path.join(dir, MANIFEST);
  if (!fs.existsSync(file)) return undefined;
  let m: Manifest;
  try {
    m = JSON.parse(fs.readFileSync(file, "utf8")) as Manifest;
  } catch (e) {
    throw new InputError(`${file} is not a bulk export's manifest: ${(e as Error).message}`);
  }
  if (m?.version !== MANIFEST_VERSION || !Array.isArray(m.ranges))
    throw new InputError(`${file} is not a manifest this version reads (version ${String(m?.version)})`);
  checkSeal(file, m);
  delete m.seal;
  return m;
}
