/**
 * The two designs of a `tdl migrate` action, read and checked before any
 * work: each must parse without errors, `--table` must be a table of the old
 * one, and a plan that has a new key component with no source is refused
 * (exit 2) naming the component — before anything is read or written.
 */
import * as path from "node:path";
import { analyzeTdl, LineIndex, planMigration, profileFor, type MigrationPlan, type ServiceName, type TdlAnalysis } from "@core";
import { InputError } from "@core/errors";
import { readTextFile } from "../../files";
import { designTable } from "../../validate";

export interface Designs {
  oldFile: string;
  newFile: string;
  old: TdlAnalysis;
  next: TdlAnalysis;
}

/** Both designs, each free of errors (the first error is named with its place). */
export function readDesigns(oldFile: string, newFile: string, table: string | undefined): Designs {
  const read = (file: string) => {
    const text = readTextFile(file);
    const analysis = analyzeTdl(text);
    const error = analysis.findings.find((f) => f.severity === "error");
    if (error) {
      const at = new LineIndex(text).position(error.start);
      throw new InputError(
        `${file}:${at.line + 1}:${at.character + 1}: ${error.message} (${error.code}): a migration needs a design without errors`,
      );
    }
    return analysis;
  };
  const old = read(oldFile);
  const next = read(newFile);
  if (table !== undefined) designTable(oldFile, old, table);
  return { oldFile, newFile, old, next };
}

/** The plan, or an input error naming every new key component that has no source (nothing is written then). */
export function checkedPlan(d: Designs, o: { table?: string; share: number; entities?: number; toService?: ServiceName }): MigrationPlan {
  const plan = planMigration(d.old, d.next, {
    table: o.table,
    share: o.share,
    entities: o.entities,
    target: o.toService ? profileFor(o.toService) : undefined,
    oldFile: path.basename(d.oldFile),
    newFile: path.basename(d.newFile),
  });
  if (!plan.tables.length)
    throw new InputError(
      `no table of ${d.oldFile}${o.table ? ` named ${o.table}` : ""} maps onto a table of ${d.newFile} (a table of the same name, or a new table holding its properties)`,
    );
  return plan;
}

/** The sentence refusing a plan with components that have no source. */
export function refusal(plan: MigrationPlan): string | undefined {
  if (!plan.refused.length) return undefined;
  return plan.refused.map((r) => `new key component ${r.prop} of ${r.table} has no source: ${r.reason}; nothing is written`).join("\n");
}
