/**
 * `tdl check` output: compiler-style text, the documented JSON, and
 * SARIF 2.1.0 for code-scanning upload.
 */
import { FixCheck, Range, Severity } from "@core";
import type { ToolQuery } from "@agent-tools/findings";
import { sarifRule } from "./catalog";
import { plural } from "@core/text/words";

export interface ReportFix {
  title: string;
  edits: Array<{ range: Range; newText: string }>;
  /** The fix the editor marks preferred: the first accepted by its check. */
  preferred?: boolean;
  /** What checking the fix on a copy of the design found (`.tdl` fixes in the JSON report). */
  check?: FixCheck;
}

export interface ReportDiagnostic {
  code: string;
  severity: Severity;
  message: string;
  range: Range;
  fixes: ReportFix[];
  /** Other places of the same problem (0-based line and character), when the finding has some. */
  related?: Array<{ path: string; line: number; character: number; message: string }>;
}

/** A declared query's class and estimates: the agent tools' shape. */
export type ReportQuery = ToolQuery;

export interface ReportFile {
  path: string;
  diagnostics: ReportDiagnostic[];
  queries: ReportQuery[];
}

export interface CheckReport {
  files: ReportFile[];
  /**
   * `infos` counts info and hint findings (query classes), as the documented
   * JSON shape has it; `hints` says how many of them are hints, so a summary
   * can use the severities its lines show.
   */
  summary: { errors: number; warnings: number; infos: number; hints: number };
}

export function summarize(files: ReportFile[]): CheckReport {
  const summary = { errors: 0, warnings: 0, infos: 0, hints: 0 };
  const key = { error: "errors", warning: "warnings", info: "infos", hint: "infos" } as const;
  for (const f of files)
    for (const d of f.diagnostics) {
      summary[key[d.severity]]++;
      if (d.severity === "hint") summary.hints++;
    }
  return { files, summary };
}

export function formatText(report: CheckReport): string {
  const lines: string[] = [];
  for (const f of report.files) {
    for (const d of f.diagnostics) {
      lines.push(`${f.path}:${d.range.start.line + 1}:${d.range.start.character + 1} ${d.severity} ${d.code} ${d.message}`);
    }
  }
  const s = report.summary;
  const failed = report.files.filter(hasInternal).length;
  lines.push(
    `${plural(report.files.length, "file")} checked: ${plural(s.errors, "error")}, ${plural(s.warnings, "warning")}, ${s.infos - s.hints} info, ${plural(s.hints, "hint")}` +
      (failed ? `; ${plural(failed, "file")} could not be analysed (internal failure)` : ""),
  );
  return lines.join("\n") + "\n";
}

const hasInternal = (f: ReportFile) => f.diagnostics.some((d) => d.code === "internal");

const SARIF_LEVEL = { error: "error", warning: "warning", info: "note", hint: "note" } as const;

/**
 * SARIF 2.1.0. A file whose analysis failed is a result (`internal`) and a
 * tool execution notification; `problems` (inputs that could not be read)
 * are notifications too, and either makes the invocation unsuccessful.
 */
export function formatSarif(report: CheckReport, version: string, problems: string[] = []): string {
  const notifications = [
    ...report.files.flatMap((f) =>
      f.diagnostics
        .filter((d) => d.code === "internal")
        .map((d) => ({
          level: "error",
          descriptor: { id: "internal" },
          message: { text: d.message },
          locations: [{ physicalLocation: { artifactLocation: { uri: f.path } } }],
        })),
    ),
    ...problems.map((p) => ({ level: "error", descriptor: { id: "unreadable-input" }, message: { text: p } })),
  ];
  const codes = [...new Set(report.files.flatMap((f) => f.diagnostics.map((d) => d.code)))].sort();
  const sarif = {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "tdl",
            version,
            rules: codes.map(sarifRule),
          },
        },
        invocations: [{ executionSuccessful: notifications.length === 0, toolExecutionNotifications: notifications }],
        results: report.files.flatMap((f) =>
          f.diagnostics.map((d) => ({
            ruleId: d.code,
            ruleIndex: codes.indexOf(d.code),
            level: SARIF_LEVEL[d.severity],
            message: { text: d.message },
            locations: [
              {
                physicalLocation: {
                  artifactLocation: { uri: f.path },
                  region: {
                    startLine: d.range.start.line + 1,
                    startColumn: d.range.start.character + 1,
                    endLine: d.range.end.line + 1,
                    endColumn: d.range.end.character + 1,
                  },
                },
              },
            ],
            ...(d.related?.length
              ? {
                  relatedLocations: d.related.map((r, i) => ({
                    id: i,
                    physicalLocation: {
                      artifactLocation: { uri: r.path },
                      region: { startLine: r.line + 1, startColumn: r.character + 1 },
                    },
                    message: { text: r.message },
                  })),
                }
              : {}),
          })),
        ),
      },
    ],
  };
  return JSON.stringify(sarif, null, 2) + "\n";
}
