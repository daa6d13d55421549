/**
 * The marker a stress table carries: one entity written right after the
 * table is created, saying which tool made it, when, on which host and in
 * which process. Leftover cleanup deletes a `stress…` table only when it
 * finds this marker — a table of the same name made by anyone else is left
 * alone.
 */
import { hostname } from "node:os";
import { TableEntity } from "@azure/data-tables";

declare const TDL_VERSION: string | undefined;

/** Every stress table's name starts with this. */
export const STRESS_PREFIX = "stress";
/** The marker's keys: a partition no load mode writes to (they use `stress-…` or the design's keys). */
export const MARKER_PARTITION = "~tdl-stress-marker";
export const MARKER_ROW = "marker";
export const MARKER_TOOL = "table-design-assistant";

/**
 * Stress tables this process is running right now: cleanup in the same
 * process (the VS Code command) never deletes a table under a live run.
 */
export const activeTables = new Set<string>();

/** What the marker says about its table. */
export interface MarkerInfo {
  tool: string;
  version: string;
  createdAt: Date;
  host: string;
  pid: number;
  design: string;
}

export function toolVersion(): string {
  return typeof TDL_VERSION === "string" ? TDL_VERSION : "dev";
}

/** The marker entity for a table created now by this process. */
export function markerEntity(design: string, now = new Date()): TableEntity<Record<string, unknown>> {
  return {
    partitionKey: MARKER_PARTITION,
    rowKey: MARKER_ROW,
    tool: MARKER_TOOL,
    version: toolVersion(),
    createdAt: now,
    host: hostname(),
    pid: process.pid,
    // The design file's base name only: a full path can say more about the user than a marker needs to.
    design: design.split(/[\\/]/).pop() ?? "",
  };
}

/** The marker's fields when `entity` is one of ours, else undefined. */
export function parseMarker(entity: Record<string, unknown>): MarkerInfo | undefined {
  if (entity.tool !== MARKER_TOOL) return undefined;
  const created = entity.createdAt instanceof Date ? entity.createdAt : new Date(String(entity.createdAt ?? ""));
  if (Number.isNaN(created.getTime())) return undefined;
  return {
    tool: MARKER_TOOL,
    version: String(entity.version ?? ""),
    createdAt: created,
    host: String(entity.host ?? ""),
    pid: Number(entity.pid ?? 0),
    design: String(entity.design ?? ""),
  };
}

/** Whether `name` could be a stress table (the prefix); the marker decides whether it is one. */
export function looksLikeStressTable(name: string): boolean {
  return name.startsWith(STRESS_PREFIX);
}
