/**
 * The workspace's design tables by name, for TypeScript fixes that take a
 * pad width from a `.tdl` property and for the drift rules that compare
 * code with the whole table: open designs first, then the `.tdl` files
 * under the workspace folders, read once on first need.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { analyzeTdl, TdlAnalysis, PropertyInfo, TableModel } from "@core";
import { designTable, DesignTable } from "@ts-analysis/drift/design-index";

const MAX_FILES = 500;

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

  constructor(
    private readonly folders: () => string[],
    private readonly open: () => OpenDesign[],
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
    let budget = MAX_FILES;
    const walk = (dir: string) => {
      let entries: fs.Dirent[];
      try {
        entries = fs.readdirSync(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const e of entries) {
        if (budget <= 0 || e.name === "node_modules" || e.name.startsWith(".")) continue;
        const full = path.join(dir, e.name);
        if (e.isDirectory()) walk(full);
        else if (e.name.endsWith(".tdl")) {
          budget--;
          try {
            const analysis = analyzeTdl(fs.readFileSync(full, "utf8"));
            const uri = pathToFileURL(full).toString();
            for (const tm of analysis.tables) if (!out.has(tm.table.name.text)) out.set(tm.table.name.text, { tm, analysis, uri });
          } catch {
            /* unreadable design: skip */
          }
        }
      }
    };
    for (const f of this.folders()) walk(f);
    return out;
  }
}
