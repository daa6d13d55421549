/**
 * `tdl heatmap --logs PATH`: which partitions were really hot, from the
 * service's own logs — Azure Monitor's StorageTableLogs (a Log Analytics
 * export as JSON or CSV, or a diagnostic setting's blobs), classic Storage
 * Analytics `$logs` lines, Cosmos DB's partition-key RU consumption. Per
 * partition its requests, throttled ones marked; cells per partition and
 * second (or minute…, by the logs' span); with --design, each key mapped to
 * the design's key expression and the predicted hottest partition beside
 * the observed one. Text, JSON, or a self-contained HTML page.
 */
import { writeFileSync } from "node:fs";
import { compareWithDesign, heatmapHtml, readLogHeatmap, type LogHeatmap } from "@runtime";
import { parseLogTime } from "@runtime/logs/times";
import { UsageError } from "@core/errors";
import { command } from "../command";
import { choice, custom, outputFile, text } from "../options";
import { readTextFile } from "../files";
import { EXIT } from "../failure";

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
    "PATH is a log file or a folder of them (read recursively; .gz files are decompressed): a Log Analytics export of StorageTableLogs as JSON or CSV, a diagnostic setting's blobs (JSON lines), Storage Analytics $logs files (version 1.0), or Cosmos DB's PartitionKeyRUConsumption from AzureDiagnostics. Counts are requests: a query page is one, a batch is one on its partition. Malformed lines are counted and skipped. docs/heatmap-logs.md says how to export each log.",
  exits: "0; 1 nothing readable (no line of PATH is a log record); 2 bad usage or a PATH that cannot be read",
  options: {
    logs: text("PATH", "a log file, or a folder of log files"),
    design: text("FILE", "map each partition to the design's key expression and compare its predicted hottest partition"),
    table: text("NAME", "only this table"),
    from: time("only requests at or after this time (ISO 8601, UTC unless it has an offset)"),
    to: time("only requests before this time"),
    format: choice(["text", "json", "html"], "text, json, or a self-contained html page (the default for an --out FILE.html)").default("text"),
    out: outputFile("FILE", "write the output to FILE (stdout then gets a one-line summary)"),
  },
  required: ["logs"],
  async run({ options, given }) {
    const format = given.has("format") ? options.format : inferFormat(options.out) ?? options.format;
    const designText = options.design === undefined ? undefined : readTextFile(options.design);
    const logs = options.logs!;
    const h = await readLogHeatmap(logs, { from: options.from, to: options.to, table: options.table });
    if (designText !== undefined) h.design = compareWithDesign(h, designText, options.design!);
    const records = h.lines - h.skipped;
    const output = format === "json" ? json(h) : format === "html" ? heatmapHtml(h) : textOf(h);
    let stdout = output;
    if (options.out) {
      writeFileSync(options.out, output);
      stdout = `${headline(h)}\nwritten to ${options.out}\n`;
    }
    return {
      stdout,
      stderr: problems(h, logs, records),
      exitCode: records > 0 ? EXIT.clean : EXIT.failed,
    };
  },
});

function inferFormat(out: string | undefined): "json" | "html" | undefined {
  return out?.endsWith(".html") || out?.endsWith(".htm") ? "html" : out?.endsWith(".json") ? "json" : undefined;
}

/** The JSON output: the contract's fields first; the panel's cells stay out (they are the runtime's, for the panel). */
function json(h: LogHeatmap): string {
  const { seconds: _cells, ...rest } = h;
  return JSON.stringify(rest, null, 2) + "\n";
}

const n = (v: number) => v.toLocaleString("en-US");

function headline(h: LogHeatmap): string {
  const span = h.from && h.to ? `${h.from} – ${h.to}` : "no request in the window";
  return `${n(h.lines)} log entries read (${n(h.skipped)} skipped as malformed), ${span}; cells of a ${h.bucketName}; ${n(h.partitionCount)} partitions`;
}

function textOf(h: LogHeatmap): string {
  const out = [headline(h), ""];
  if (h.partitions.length) {
    out.push("hottest partitions: requests (reads, writes, throttled, failed), busiest second");
    for (const p of h.partitions.slice(0, 20)) {
      const design = p.design === undefined ? "" : p.design ? `  ${p.design.table}: ${p.design.partitionKey}` : "  (no design key)";
      out.push(
        `  ${p.table}/${p.partitionKey}  ${n(p.operations)} (${n(p.reads)}, ${n(p.writes)}, ${n(p.throttled)}, ${n(p.failed)}), ${n(p.peakPerSecond)}/s${design}`,
      );
    }
  }
  for (const u of h.unattributed) {
    const by = Object.entries(u.byClass)
      .map(([k, v]) => `${k} ${n(v)}`)
      .join(", ");
    out.push(`  ${u.table}: ${n(u.operations)} requests over several partitions (${by})`);
  }
  if (h.design) {
    out.push("", `against ${h.design.file}:`);
    const pct = (v: number | null) => (v === null ? "unknown" : `${v >= 0 ? "+" : ""}${(v * 100).toFixed(1)} %`);
    for (const t of h.design.tables) {
      const top = t.observed.hottest[0];
      out.push(
        `  ${t.logTable} as ${t.designTable} (partitionKey = ${t.partitionKey}; ${n(t.matched)} of ${n(t.matched + t.unmatched)} keys match)`,
        `    predicted hottest partition: ${n(t.predicted.hottestPerSecond)} entities/s${t.predicted.hottestShare === null ? "" : `, ${(t.predicted.hottestShare * 100).toFixed(1)} % of the load`}`,
        `    observed hottest: ${top ? `${top.partitionKey} at ${n(top.peakPerSecond)} requests/s, ${(top.share * 100).toFixed(1)} % of the requests` : "none"}`,
        `    error: ${pct(t.error.hottestPerSecond)} in rate, ${t.error.hottestShare === null ? "unknown" : `${(t.error.hottestShare * 100).toFixed(1)} points`} in share`,
      );
    }
    if (h.design.unmatchedTables.length) out.push(`  no design table matches ${h.design.unmatchedTables.join(", ")}`);
  }
  if (h.notes.length) out.push("", ...h.notes);
  return out.join("\n") + "\n";
}

/** What stderr says: files that could not be read, the first malformed lines, and an empty result. */
function problems(h: LogHeatmap, logs: string, records: number): string {
  const lines: string[] = [];
  for (const f of h.files) if (f.problem) lines.push(`tdl: ${f.file}: ${f.problem}`);
  if (h.skipped) {
    const first = h.skippedExamples.map((s) => `${s.file}:${s.line}: ${s.reason}`).join("; ");
    lines.push(`tdl: ${n(h.skipped)} malformed log entr${h.skipped === 1 ? "y" : "ies"} skipped (${first})`);
  }
  if (records === 0) lines.push(`tdl: nothing readable in ${logs}: no line is a StorageTableLogs, $logs or Cosmos DB RU record`);
  return lines.map((l) => l + "\n").join("");
}
