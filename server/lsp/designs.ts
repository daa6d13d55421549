/**
 * The workspace's design tables by name, for TypeScript fixes that take a
 * pad width from a `.tdl` property and for the drift rules that compare
 * code with the whole table; and the workspace's design files, whose
 * diagnostics are published whether or not they are open
 * (workspace-diagnostics.ts).
 *
 * Which designs count: saved `.tdl` files inside the workspace's folders
 * (any `file:` design when no folder is open), each as the editor has it
 * when it is open — its unsaved text wins over the disk — and as the disk
 * has it otherwise. An Untitled buffer, a diff view's old version (`git:`)
 * or a file outside the workspace never stands in for the design of a
 * table: drift against a scratch buffer would be drift against nothing the
 * project keeps. When two files declare the same table, the first in path
 * order is used (as the editor has it, when open) and the user is told once.
 *
 * The scan reads only regular files of bounded size (design-files.ts), at
 * most `MAX_FILES` of them and `MAX_TOTAL_BYTES` in all, and says once which
 * files it left out and why: nothing in the workspace can hang the server
 * or grow it without bound.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { analyzeTdl, AnalysisOptions, TdlAnalysis, PropertyInfo, TableModel } from "@core";
import { formatCount, plural } from "@core/text/words";
import { designTable, DesignTable } from "@ts-analysis/drift/design-index";
import { MAX_DESIGN_BYTES, readDesignFile } from "./design-files";

/** Design files the scan reads at most. */
export const MAX_FILES = 500;
/** Bytes of all the designs the scan reads together. */
export const MAX_TOTAL_BYTES = 16 * 1024 * 1024;
/** Skipped files the message names (it says how many more). */
const NAMED_SKIPS = 10;

/** An open design: its URI and its current analysis. */
export interface OpenDesign {
  uri: string;
  analysis: TdlAnalysis;
}

/** A design file as the disk has it, analysed. */
export interface DiskDesign {
  uri: string;
  analysis: TdlAnalysis;
}

interface Found {
  tm: TableModel;
  analysis: TdlAnalysis;
  uri: string;
}

export class WorkspaceDesigns {
  private fromDisk: Map<string, DiskDesign> | undefined;
  /** Bytes of the designs in `fromDisk`: the scan's budget holds for files that arrive later too (created, watched). */
  private diskBytes = 0;
  /** Files a change named that the budget left out since it was last said (said once per batch, by `sayLeftOut`). */
  private leftOut: string[] = [];
  /** What was told already (which files were left out, which of two designs is used), so each is said once. */
  private readonly told = new Set<string>();

  /**
   * @param say tells the user once which design files were left out and
   *   why (a rescan that leaves out the same ones says nothing), and once per
   *   table which of two designs is used (the server's log and the client's
   *   status bar)
   * @param options the analysis options of the designs read from disk (the user's rule levels and service)
   */
  constructor(
    private readonly folders: () => string[],
    private readonly open: () => OpenDesign[],
    private readonly say: (message: string) => void = () => undefined,
    private readonly options: () => AnalysisOptions = () => ({}),
  ) {}

  /**
   * Whether the design at `uri` counts as one of the workspace's: a `file:`
   * URI inside a workspace folder (or any `file:` URI when no folder is open).
   */
  counts(uri: string): boolean {
    const file = filePath(uri);
    if (!file) return false;
    const folders = this.folders();
    return !folders.length || folders.some((f) => isInside(file, f));
  }

  table(name: string | undefined): ReadonlyMap<string, PropertyInfo> | undefined {
    return this.find(name)?.tm.props;
  }

  /** The whole declared table of that name, as the drift rules compare it with code. */
  designTable(name: string | undefined): DesignTable | undefined {
    const found = this.find(name);
    return found ? designTable(found.tm, found.analysis, found.uri) : undefined;
  }

  /** Every design file of the workspace as the disk has it (read on first need, within the scan's budget), by path. */
  files(): ReadonlyMap<string, DiskDesign> {
    this.fromDisk ??= this.scan();
    return this.fromDisk;
  }

  /**
   * A design file changed on disk (created, saved, replaced): read it again.
   * Returns its new analysis, or undefined when it no longer counts (gone,
   * unreadable, outside the workspace) — it is then forgotten.
   */
  reread(uri: string): DiskDesign | undefined {
    const file = filePath(uri);
    if (!this.fromDisk || !file) return undefined;
    this.forgetFile(file);
    if (!this.counts(uri) || !file.endsWith(".tdl")) return undefined;
    // A file the scan did not hold joins only within its budget: 20,000 files named by one change are not 20,000 reads.
    if (this.fromDisk.size >= MAX_FILES || this.diskBytes >= MAX_TOTAL_BYTES) {
      this.leftOut.push(`${file}: over the scan's budget of ${plural(MAX_FILES, "file")} and ${formatCount(MAX_TOTAL_BYTES)} bytes`);
      return undefined;
    }
    const read = readDesignFile(file, Math.min(MAX_DESIGN_BYTES, MAX_TOTAL_BYTES - this.diskBytes));
    if ("skipped" in read) {
      this.leftOut.push(`${file} ${read.skipped}`);
      return undefined;
    }
    const design = this.analyse(pathToFileURL(file).toString(), read.text);
    this.keep(file, design);
    return design;
  }

  /** Says once which of the files changes named were left out since it was last said, and why. */
  sayLeftOut(): void {
    if (this.leftOut.length) this.sayOnce(leftOutMessage(this.leftOut));
    this.leftOut = [];
  }

  /** A design file was deleted. */
  removed(uri: string): void {
    const file = filePath(uri);
    if (file) this.forgetFile(file);
  }

  /** Options changed, or the folders did: read the disk again on next need. */
  invalidate(): void {
    this.fromDisk = undefined;
    this.diskBytes = 0;
  }

  private keep(file: string, design: DiskDesign): void {
    this.fromDisk?.set(file, design);
    this.diskBytes += Buffer.byteLength(design.analysis.text);
  }

  private forgetFile(file: string): void {
    const was = this.fromDisk?.get(file);
    if (!was) return;
    this.fromDisk!.delete(file);
    this.diskBytes -= Buffer.byteLength(was.analysis.text);
  }

  private find(name: string | undefined): Found | undefined {
    if (!name) return undefined;
    const candidates: Array<Found & { file: string }> = [];
    const open = this.open().filter((o) => this.counts(o.uri));
    for (const { uri, analysis } of open) {
      const tm = analysis.tables.find((t) => t.table.name.text === name);
      if (tm) candidates.push({ tm, analysis, uri, file: filePath(uri)! });
    }
    // An open design wins over its own older text on disk, whether or not it still declares the table.
    const openFiles = new Set(open.map((o) => filePath(o.uri)));
    for (const [file, d] of this.files()) {
      if (openFiles.has(file)) continue;
      const tm = d.analysis.tables.find((t) => t.table.name.text === name);
      if (tm) candidates.push({ tm, analysis: d.analysis, uri: d.uri, file });
    }
    // In path order, open or not: which design counts must not change when a file is opened, saved or created.
    candidates.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
    if (candidates.length > 1) this.ambiguous(name, candidates);
    return candidates[0];
  }

  private ambiguous(name: string, candidates: Found[]): void {
    const uris = [...new Map(candidates.map((c) => [filePath(c.uri), c.uri])).values()];
    if (uris.length < 2) return;
    const names = uris.map((u) => this.shown(u));
    this.sayOnce(
      `table ${name} is declared by ${plural(uris.length, "design")} (${names.join(", ")}): code is compared with the one in ${names[0]}`,
    );
  }

  private sayOnce(message: string): void {
    if (this.told.has(message)) return;
    this.told.add(message);
    this.say(message);
  }

  /** A file as the user reads it: relative to its workspace folder. */
  private shown(uri: string): string {
    const file = filePath(uri);
    if (!file) return uri;
    const folder = this.folders().find((f) => isInside(file, f));
    return folder ? path.relative(folder, file) : file;
  }

  private scan(): Map<string, DiskDesign> {
    const out = new Map<string, DiskDesign>();
    this.diskBytes = 0;
    const skipped: string[] = [];
    let files = MAX_FILES;
    let bytes = MAX_TOTAL_BYTES;
    // A folder inside another folder of the workspace is walked once.
    const walked = new Set<string>();
    const walk = (dir: string) => {
      let entries: fs.Dirent[];
      try {
        const real = fs.realpathSync(dir);
        if (walked.has(real)) return;
        walked.add(real);
        entries = fs.readdirSync(dir, { withFileTypes: true });
      } catch {
        return;
      }
      // In name order: which files the scan's budget keeps must not depend on the file system's order.
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const e of entries) {
        if (e.name === "node_modules" || e.name.startsWith(".")) continue;
        const full = path.join(dir, e.name);
        // Links to folders are not followed (a link to an ancestor would loop); links named *.tdl are checked below.
        if (e.isDirectory()) walk(full);
        else if (e.name.endsWith(".tdl")) {
          if (files <= 0 || bytes <= 0) {
            skipped.push(`${full}: over the scan's budget of ${plural(MAX_FILES, "file")} and ${formatCount(MAX_TOTAL_BYTES)} bytes`);
            continue;
          }
          files--;
          const read = readDesignFile(full, MAX_DESIGN_BYTES);
          if ("skipped" in read) {
            skipped.push(`${full} ${read.skipped}`);
            continue;
          }
          bytes -= Buffer.byteLength(read.text);
          this.diskBytes += Buffer.byteLength(read.text);
          out.set(full, this.analyse(pathToFileURL(full).toString(), read.text));
        }
      }
    };
    for (const f of this.folders()) walk(f);
    if (skipped.length) this.sayOnce(leftOutMessage(skipped));
    return out;
  }

  private analyse(uri: string, text: string): DiskDesign {
    try {
      return { uri, analysis: analyzeTdl(text, this.options()) };
    } catch {
      // The analysis does not throw; should it, the file adds no table (and no diagnostics).
      return { uri, analysis: analyzeTdl("", this.options()) };
    }
  }
}

/** "Table Design left 3 design files of the workspace unread: a.tdl has …; …; and 1 more". */
function leftOutMessage(skipped: string[]): string {
  const named = skipped.slice(0, NAMED_SKIPS).join("; ");
  const more = skipped.length > NAMED_SKIPS ? `; and ${formatCount(skipped.length - NAMED_SKIPS)} more` : "";
  return `Table Design left ${plural(skipped.length, "design file")} of the workspace unread: ${named}${more}`;
}

/** The path of a `file:` URI; undefined for any other scheme (untitled:, git:, vscode-vfs:…). */
export function filePath(uri: string): string | undefined {
  if (!uri.startsWith("file:")) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

function isInside(file: string, folder: string): boolean {
  const rel = path.relative(folder, file);
  return !!rel && !rel.startsWith("..") && !path.isAbsolute(rel);
}
