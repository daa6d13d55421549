/**
 * `preview_fix`: the text of a design after a checked fix, and what it
 * leaves. One finding (by code, and line when the code occurs more than
 * once): its best accepted fix, or the one chosen by its index in
 * check_design's list. No finding named: every checked fix, round after
 * round, as `tdl fix` applies them (core/fixes/apply.ts). The file is
 * written only with `apply: true`, to the `.tdl` path it was read from,
 * inside the workspace, whole (a temporary file renamed over it).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { analyzeTdl, applyCheckedFixes, applyFixEdits, LineIndex, TdlAnalyzer, vetFixes, type Fix } from "@core";
import { InputError, UsageError } from "@core/errors";
import { ANALYSIS_PROPERTIES, analysisOf, DESIGN_PROPERTIES, designOf, insideWorkspace } from "./inputs";
import { byPlace, countOf, SUMMARY_SCHEMA } from "./findings";
import { defineTool } from "./tool";

interface Input {
  design?: string;
  path?: string;
  code?: string;
  line?: number;
  fix?: number;
  apply?: boolean;
  service?: string;
  rules?: Record<string, string>;
}

interface Applied {
  code: string;
  title: string;
}

export const previewFix = defineTool({
  name: "preview_fix",
  title: "Preview a checked fix",
  description:
    "The design's text after a checked quick fix, and the findings it leaves. Name a finding by code (and 0-based line when the code occurs more than once) for its best checked fix, or pick one of its fixes by index as check_design lists them; without code, every checked fix is applied round after round as `tdl fix` does. Nothing is written unless apply is true and the design was given by path (a .tdl file inside the workspace).",
  inputSchema: {
    type: "object",
    properties: {
      ...DESIGN_PROPERTIES,
      code: { type: "string", maxLength: 100, description: "The finding's code, e.g. partition/hot." },
      line: { type: "integer", minimum: 0, description: "The finding's 0-based start line, when the code occurs more than once." },
      fix: {
        type: "integer",
        minimum: 0,
        maximum: 100,
        description: "Index of the fix in check_design's list for that finding (default: its preferred fix).",
      },
      apply: { type: "boolean", description: "Write the fixed text to path (default false: preview only)." },
      ...ANALYSIS_PROPERTIES,
    },
    additionalProperties: false,
  },
  outputSchema: {
    type: "object",
    properties: {
      design: { type: "string" },
      text: { type: "string", description: "The design after the fix." },
      applied: {
        type: "array",
        items: { type: "object", properties: { code: { type: "string" }, title: { type: "string" } }, required: ["code", "title"] },
      },
      leaves: SUMMARY_SCHEMA,
      left: {
        type: "array",
        description: "Warnings and errors after the fix: code, severity, 0-based line and message.",
        items: {
          type: "object",
          properties: { code: { type: "string" }, severity: { type: "string" }, line: { type: "integer" }, message: { type: "string" } },
        },
      },
      written: { type: "boolean" },
    },
    required: ["design", "text", "applied", "leaves", "left", "written"],
  },
  writes: true,
  run(input: Input, { workspace }) {
    if (input.apply && input.path === undefined) throw new UsageError("apply writes to the design's file: give it by path, not as text");
    if (input.apply && !input.path!.endsWith(".tdl")) throw new UsageError("apply writes only .tdl designs");
    if (input.code === undefined && (input.line !== undefined || input.fix !== undefined))
      throw new UsageError("line and fix need the finding's code");
    const target = input.apply ? insideWorkspace(workspace, input.path!, true) : undefined;
    const { text, file } = designOf(input, workspace);
    const options = analysisOf(input);
    const { text: fixed, applied } = input.code === undefined ? allFixes(text, options) : oneFix(text, input, options);
    const after = analyzeTdl(fixed, options).findings.sort(byPlace);
    const lines = new LineIndex(fixed);
    const left = after
      .filter((f) => f.severity === "error" || f.severity === "warning")
      .map((f) => ({ code: f.code, severity: f.severity, line: lines.position(f.start).line, message: f.message }));
    if (target && applied.length) writeWhole(target, fixed);
    return { design: file, text: fixed, applied, leaves: countOf(after), left, written: !!target && applied.length > 0 };
  },
});

function allFixes(text: string, options: ReturnType<typeof analysisOf>): { text: string; applied: Applied[] } {
  const run = applyCheckedFixes(text, options);
  return { text: run.text, applied: run.steps.map((s) => ({ code: s.code, title: s.title })) };
}

function oneFix(text: string, input: Input, options: ReturnType<typeof analysisOf>): { text: string; applied: Applied[] } {
  const analysis = analyzeTdl(text, options);
  const lines = new LineIndex(text);
  const matching = analysis.findings
    .sort(byPlace)
    .filter((f) => f.code === input.code && (input.line === undefined || lines.position(f.start).line === input.line));
  if (!matching.length)
    throw new InputError(`the design has no finding ${input.code}${input.line === undefined ? "" : ` on line ${input.line}`}`);
  if (matching.length > 1)
    throw new InputError(`${input.code} occurs on lines ${matching.map((f) => lines.position(f.start).line).join(", ")}: give line`);
  const finding = matching[0];
  if (!finding.fixes?.length) throw new InputError(`${input.code} has no automatic fix: explain_rule says what to do`);
  const vet = vetFixes(analysis, finding, { analyzer: new TdlAnalyzer() });
  const listed: Fix[] = [...vet.checked.map((v) => v.fix), ...vet.unchecked];
  let fix: Fix | undefined;
  if (input.fix !== undefined) {
    fix = listed[input.fix];
    if (!fix) throw new InputError(`${input.code} has ${listed.length} fix${listed.length === 1 ? "" : "es"}: fix is an index from 0`);
  } else {
    fix = vet.offered[0];
    if (!fix) {
      const why = vet.checked.find((v) => v.check.refused)?.check.refused ?? "its fixes could not be checked";
      throw new InputError(`no checked fix removes ${input.code}: ${why}`);
    }
  }
  return { text: applyFixEdits(text, fix.edits), applied: [{ code: finding.code, title: fix.title }] };
}

/** Writes beside the file and renames over it: an interrupted write never leaves half a design. */
function writeWhole(file: string, text: string): void {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  try {
    fs.writeFileSync(tmp, text);
    fs.renameSync(tmp, file);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw new InputError(`cannot write ${path.basename(file)}: ${(e as Error).message.split("\n")[0]}`);
  }
}
