/**
 * The workspace's design tables by name, for TypeScript fixes that take a
 * pad width from a `.tdl` property: open designs first, then the `.tdl`
 * files under the workspace folders, read once on first need.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { analyzeTdl, TdlAnalysis, PropertyInfo } from "../core";

const MAX_FILES = 500;

export class WorkspaceDesigns {
  private fromDisk: Map<string, ReadonlyMap<string, PropertyInfo>> | undefined;

  constructor(private readonly folders: () => string[], private readonly open: () => TdlAnalysis[]) {}

  table(name: string | undefined): ReadonlyMap<string, PropertyInfo> | undefined {
    if (!name) return undefined;
    for (const a of this.open()) {
      const t = a.tables.find((tm) => tm.table.name.text === name);
      if (t) return t.props;
    }
    this.fromDisk ??= this.scan();
    return this.fromDisk.get(name);
  }

  /** A design on disk changed: read the folders again on next need. */
  invalidate(): void {
    this.fromDisk = undefined;
  }

  private scan(): Map<string, ReadonlyMap<string, PropertyInfo>> {
    const out = new Map<string, ReadonlyMap<string, PropertyInfo>>();
    let budget = MAX_FILES;
    const walk = (dir: string) => {
      let entries: fs.Dirent[];
      try { entries = fs.readdirSync(dir, { withFileTypes: true }); } catch { return; }
      for (const e of entries) {
        if (budget <= 0 || e.name === "node_modules" || e.name.startsWith(".")) continue;
        const full = path.join(dir, e.name);
        if (e.isDirectory()) walk(full);
        else if (e.name.endsWith(".tdl")) {
          budget--;
          try {
            for (const tm of analyzeTdl(fs.readFileSync(full, "utf8")).tables) if (!out.has(tm.table.name.text)) out.set(tm.table.name.text, tm.props);
          } catch { /* unreadable design: skip */ }
        }
      }
    };
    for (const f of this.folders()) walk(f);
    return out;
  }
}
