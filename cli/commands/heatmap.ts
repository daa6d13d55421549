/**
 * `tdl heatmap --logs PATH`: which partitions were really hot, from the
 * service's own logs — Azure Monitor's StorageTableLogs (a Log Analytics
 * export as JSON or CSV, or a diagnostic setting's blobs), classic Storage
 * Analytics `$logs` lines, Cosmos DB's partition-key RU consumption. Per
 * partition its entities (read, written, throttled) and requests; cells
 * per partition and second (or minute…, by the logs' span); with --design,
 * each key mapped to the design's key expression and the design's
 * predicted hottest partition beside the observed ones, with the error.
 * Text, JSON, or a self-contained HTML page.
 */
import { writeFileSync } from "node:fs";
import { analyzeTdl } from "@core";
import { compareWithDesign, heatmapHtml, nothingReadable, readLogHeatmap } from "@runtime";
import { headline } from "@runtime/logs/html";
import { parseLogTime } from "@runtime/logs/times";
import type { LogHeatmap, TableComparison } from "@protocol/log-heatmap";
import { UsageError } from "@core/errors";
import { formatCount as n, plural } from "@core/text/words";
import { command } from "../command";
import { ANALYSIS, analysisOf, choice, custom, outputFile, positive, text } from "../options";
import { readTextFile } from "../files";
import { EXIT } from "../failure";
import { designTable, existingPath, noSuch } from "../validate";

const time = (help: string) =>
  custom("TIME", help, (raw, name) => {
    const t = parseLogTime(raw);
    if (t === undefined) throw new UsageError(`--${name} must be a time such as 2026-11-24T13:00:00Z, not '${raw.slice(0, 40)}'`);
    return t;
  });

export const heatmap = command({
  name: "heatmap",
  summary: "A key-space heatmap of the partitions the service's own logs show were hot (StorageTableLogs, $logs, Cosmos DB RU logs)",
  description:
    "PATH is a log file or a folder of them (read recursively; .gz files are decompressed): a Log Analytics export of StorageTableLogs as JSON or CSV, a diagnostic setting's blobs (JSON lines), Storage Analytics $logs files (version 1.0), or Cosmos DB's PartitionKeyRUConsumption from AzureDiagnostics. Entities are counted as the emulator's heatmap counts them (a batch its operations when the log shows them, a query page one); requests beside them. Malformed lines are counted and skipped. docs/heatmap-logs.md says how to export each log.",
  exits: "0; 1 nothing readable (no line of PATH is a log record); 2 bad usage or a PATH that cannot be read",
  options: {
    logs: text("PATH", "a log file, or a folder of log files"),
    design: text("FILE", "map each partition to the design's key expression and compare its predicted hottest partition"),
    table: text("NAME", "only this table of the logs (and, with --design, the design table of that name)"),
    scale: positive(
      "K",
      "with --design: multiply the design's rates by K (logs of a stress run scaled by K, as tdl stress --emulator-scale K)",
    ),
    "design-table": text(
      "NAME",
      "with --design: the design table the logs' tables are read as (default: the one of the same name, or whose key renders most keys)",
    ),
    from: time("only requests at or after this time (ISO 8601, UTC unless it has an offset)"),
    to: time("only requests before this time"),
    format: choice(["text", "json", "html"], "text, json, or a self-contained html page (the default for an --out FILE.html)").default(
      "text",
    ),
    out: outputFile("FILE", "write the output to FILE (stdout then gets a one-line summary)"),
    ...ANALYSIS.options,
  },
  required: ["logs"],
  async run({ options, given }) {
    const format = given.has("format") ? options.format : (inferFormat(options.out) ?? options.format);
    for (const o of ["design-table", "scale"] as const)
      if (options[o] !== undefined && options.design === undefined) throw new UsageError(`--${o} needs --design`);
    const designText = options.design === undefined ? undefined : readTextFile(options.design);
    const analysis = analysisOf(options);
    if (designText !== undefined && options["design-table"] !== undefined)
      designTable(options.design!, analyzeTdl(designText, analysis), options["design-table"]);
    const logs = options.logs!;
    existingPath(logs);
    const tablesSeen = new Set<string>();
    const h = await readLogHeatmap(logs, { from: options.from, to: options.to, table: options.table, tablesSeen });
    // A --table the logs never show is a misspelt name, not an empty window.
    const asked = options.table?.toLowerCase();
    if (asked !== undefined && tablesSeen.size && ![...tablesSeen].some((t) => t.toLowerCase() === asked))
      throw noSuch(logs, "table", options.table!, [...tablesSeen].sort());
    if (designText !== undefined)
      h.design = compareWithDesign(h, designText, options.design!, {
        analysis,
        designTable: options["design-table"],
        scale: options.scale,
      });
    const records = h.lines - h.skipped;
    const output = format === "json" ? json(h) : format === "html" ? heatmapHtml(h) : textOf(h);
    let stdout = output;
    if (options.out) {
      writeFileSync(options.out, output);
      stdout = `${headline(h)}\nwritten to ${options.out}\n`;
    }
    return { stdout, stderr: problems(h, logs), exitCode: records > 0 ? EXIT.clean : EXIT.failed };
  },
});

function inferFormat(out: string | undefined): "json" | "html" | undefined {
  return out?.endsWith(".html") || out?.endsWith(".htm") ? "html" : out?.endsWith(".json") ? "json" : undefined;
}

/** The JSON output: the contract's fields (lines, skipped, from, to, partitions with operations and throttled) and the rest. */
function json(h: LogHeatmap): string {
  return JSON.stringify(h, null, 2) + "\n";
}

const LISTED = 20;

function textOf(h: LogHeatmap): string {
  const out = [headline(h), ""];
  if (h.partitions.length) {
    out.push("hottest partitions: entities read, written, throttled; requests (failed); busiest bucket");
    for (const p of h.partitions.slice(0, LISTED)) {
      const e = p.entities;
      const design = p.design === undefined ? "" : p.design ? `  ${p.design.table}: ${p.design.partitionKey}` : "  (no design key)";
      // A row that may be short says by how much at most (a key folded for memory came back).
      const short = p.shortBy ? `  (may be short by up to ${n(p.shortBy)})` : "";
      const probe = p.probe ? "  (calibration probe)" : "";
      out.push(
        `  ${p.table}/${p.partitionKey}  ${n(e.read)}, ${n(e.written)}, ${n(e.throttled)}; ${n(p.operations)} (${n(p.failed)}); ${n(p.peakPerSecond)}/s${design}${short}${probe}`,
      );
    }
  }
  for (const u of h.unattributed) {
    const by = Object.entries(u.byClass)
      .map(([k, v]) => `${k} ${n(v)}`)
      .join(", ");
    const ranges = u.ranges.map((r) => `${r.from ?? "…"} – ${r.to ?? "…"} (${plural(r.pages, "page")})`).join("; ");
    out.push(`  ${u.table}: ${plural(u.operations, "request")} over several partitions (${by})${ranges ? `; ranges ${ranges}` : ""}`);
  }
  if (h.design) {
    out.push("", `against ${h.design.file}:`);
    for (const t of h.design.tables) out.push(...comparisonLines(t));
    if (h.design.unmatchedTables.length) out.push(`  no design table matches ${h.design.unmatchedTables.join(", ")}`);
  }
  if (h.notes.length) out.push("", ...h.notes);
  return out.join("\n") + "\n";
}

const pct = (v: number) => `${(v * 100).toFixed(1)} %`;

function comparisonLines(t: TableComparison): string[] {
  const observed = t.observed.hottest.map((o) => `${o.partitionKey} ${n(o.peakPerSecond)}/s (${pct(o.share)})`).join(", ");
  return [
    `  ${t.logTable} as ${t.designTable} (partitionKey = ${t.partitionKey}; ${n(t.matched)} of ${n(t.matched + t.unmatched)} keys match)`,
    `    ${t.said.predicted}`,
    `    Observed hottest: ${observed || "none"}.`,
    `    ${t.said.error}`,
  ];
}

/** What stderr says: files that could not be read, the first malformed lines, and an empty result. */
function problems(h: LogHeatmap, logs: string): string {
  const lines: string[] = [];
  for (const f of h.files) if (f.problem) lines.push(`tdl: ${f.file}: ${f.problem}`);
  if (h.skipped) {
    const first = h.skippedExamples.map((s) => `${s.file}:${s.line}: ${s.reason}`).join("; ");
    lines.push(`tdl: ${plural(h.skipped, "malformed log entry", "malformed log entries")} skipped (${first})`);
  }
  // The files' problems and the skipped lines are said above.
  const empty = nothingReadable(h, logs, false);
  if (empty) lines.push(`tdl: ${empty}`);
  return lines.map((l) => l + "\n").join("");
}
