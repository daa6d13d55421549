/**
 * The workspace's design tables by name, for TypeScript fixes that take a
 * pad width from a `.tdl` property and for the drift rules that compare
 * code with the whole table: open designs first, then the `.tdl` files
 * under the workspace folders, read once on first need. The scan reads
 * only regular files of bounded size (design-files.ts), at most
 * `MAX_FILES` of them and `MAX_TOTAL_BYTES` in all, and says once which
 * files it left out and why: nothing in the workspace can hang the server
 * or grow it without bound.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { analyzeTdl, TdlAnalysis, PropertyInfo, TableModel } from "@core";
import { formatCount, plural } from "@core/text/words";
import { designTable, DesignTable } from "@ts-analysis/drift/design-index";
import { MAX_DESIGN_BYTES, readDesignFile } from "./design-files";

const MAX_FILES = 500;
/** Bytes of all the designs the scan reads together. */
const MAX_TOTAL_BYTES = 16 * 1024 * 1024;
/** Skipped files the message names (it says how many more). */
const NAMED_SKIPS = 10;

/** An open design: its URI and its current analysis. */
export interface OpenDesign {
  uri: string;
  analysis: TdlAnalysis;
}

interface OnDisk {
  tm: TableModel;
  analysis: TdlAnalysis;
  uri: string;
}

export class WorkspaceDesigns {
  private fromDisk: Map<string, OnDisk> | undefined;

  /**
   * @param say tells the user once per scan which design files were left
   *   out and why (the server's log and the client's status bar)
   */
  constructor(
    private readonly folders: () => string[],
    private readonly open: () => OpenDesign[],
    private readonly say: (message: string) => void = () => undefined,
  ) {}

  table(name: string | undefined): ReadonlyMap<string, PropertyInfo> | undefined {
    return this.find(name)?.tm.props;
  }

  /** The whole declared table of that name, as the drift rules compare it with code. */
  designTable(name: string | undefined): DesignTable | undefined {
    const found = this.find(name);
    return found ? designTable(found.tm, found.analysis, found.uri) : undefined;
  }

  /** A design on disk changed: read the folders again on next need. */
  invalidate(): void {
    this.fromDisk = undefined;
  }

  private find(name: string | undefined): OnDisk | undefined {
    if (!name) return undefined;
    for (const { uri, analysis } of this.open()) {
      const tm = analysis.tables.find((t) => t.table.name.text === name);
      if (tm) return { tm, analysis, uri };
    }
    this.fromDisk ??= this.scan();
    const hit = this.fromDisk.get(name);
    // An open design that no longer declares the table wins over its older text on disk.
    return hit && !this.open().some((o) => o.uri === hit.uri) ? hit : undefined;
  }

  private scan(): Map<string, OnDisk> {
    const out = new Map<string, OnDisk>();
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
          this.add(out, full, read.text);
        }
      }
    };
    for (const f of this.folders()) walk(f);
    if (skipped.length) {
      const named = skipped.slice(0, NAMED_SKIPS).join("; ");
      const more = skipped.length > NAMED_SKIPS ? `; and ${formatCount(skipped.length - NAMED_SKIPS)} more` : "";
      this.say(`Table Design left ${plural(skipped.length, "design file")} of the workspace unread: ${named}${more}`);
    }
    return out;
  }

  private add(out: Map<string, OnDisk>, file: string, text: string): void {
    try {
      const analysis = analyzeTdl(text);
      const uri = pathToFileURL(file).toString();
      for (const tm of analysis.tables) if (!out.has(tm.table.name.text)) out.set(tm.table.name.text, { tm, analysis, uri });
    } catch {
      /* the analysis does not throw; a design it cannot read adds no table */
    }
  }
}
