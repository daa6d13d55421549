/**
 * `tdl fix PATH…`: applies every quick fix that is the only fix of its
 * diagnostic, re-analysing after each round, and prints what it changed.
 */
import * as fs from "node:fs";
import { analyzeTdl, Fix, TextEdit } from "../service";
import { displayPath, isDesignFile } from "./check";
import { expandPaths, InputError } from "./files";

const MAX_ROUNDS = 10;

/** Applies single fixes until none is left; returns the new text and the codes fixed. */
export function fixText(text: string): { text: string; applied: string[] } {
  const applied: string[] = [];
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const candidates = analyzeTdl(text).findings.filter((f) => f.fixes?.length === 1);
    const chosen: Array<{ code: string; fix: Fix }> = [];
    const taken: TextEdit[] = [];
    for (const f of candidates) {
      const fix = f.fixes![0];
      // One round applies fixes whose edits do not overlap; the rest wait for the next round.
      if (fix.edits.some((e) => taken.some((t) => e.start < t.end && t.start < e.end || (e.start === t.start && e.end === t.end)))) continue;
      taken.push(...fix.edits);
      chosen.push({ code: f.code, fix });
    }
    if (!chosen.length) break;
    text = [...taken].sort((a, b) => b.start - a.start).reduce((t, e) => t.slice(0, e.start) + e.newText + t.slice(e.end), text);
    applied.push(...chosen.map((c) => c.code));
  }
  return { text, applied };
}

export function runFix(paths: string[]): string {
  const out: string[] = [];
  let total = 0;
  for (const file of expandPaths(paths, isDesignFile)) {
    let text: string;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch (e) {
      throw new InputError(`${displayPath(file)}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
    const { text: fixed, applied } = fixText(text);
    if (!applied.length) continue;
    fs.writeFileSync(file, fixed);
    total += applied.length;
    const counts = new Map<string, number>();
    for (const c of applied) counts.set(c, (counts.get(c) ?? 0) + 1);
    out.push(`${displayPath(file)}: ${applied.length} fix${applied.length === 1 ? "" : "es"} (${[...counts].map(([c, n]) => (n > 1 ? `${c} ×${n}` : c)).join(", ")})`);
  }
  out.push(`${total} fix${total === 1 ? "" : "es"} applied`);
  return out.join("\n") + "\n";
}
