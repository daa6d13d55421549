/**
 * `tdl cost DESIGN.tdl`: what each table's declared load costs a month on
 * each service profile — Table Storage's transactions (batches and query
 * pages counted as the service bills them, throttled retries included) and
 * capacity, Cosmos DB for Table's request units provisioned for the hottest
 * partition (provisioned, autoscale and serverless side by side),
 * Tablestore's capacity units — with the price sheet's date and region.
 * `--against OTHER.tdl` prices a second design (a quick fix's result, say)
 * with the same sheet and puts each table's monthly figures side by side.
 */
import * as path from "node:path";
import { dollars, formatQuantity, listNames, plural } from "@core/text/words";
import { analyzeTdl, designCost, tablesWithErrors, type Redundancy, type ServiceEstimate, type TableCost, type TdlAnalysis } from "@core";
import { refreshPrices, sheetFor, type SheetChoice } from "@runtime";
import { command } from "../command";
import { ANALYSIS, analysisOf, choice, flag, text } from "../options";
import { readTextFile } from "../files";
import { EXIT } from "../failure";
import { declaredRates, designTable } from "../validate";

export const cost = command({
  name: "cost",
  summary: "The monthly cost of each table's declared load per service profile, with the prices' date and region",
  description:
    "Rates are peak rates: the month is priced as if the peak lasted. Prices come from the snapshot shipped with tdl, or from Azure's Retail Prices API with --refresh-prices (cached per region); the output says which.",
  exits: "0; 1 the design has errors (those tables are not priced); 2 bad usage or an unreadable design",
  positionals: { arg: "DESIGN.tdl", count: "one" },
  options: {
    table: text("NAME", "only this table"),
    region: text("REGION", "the Azure region whose prices apply (eastus, westeurope…)").default("eastus"),
    redundancy: choice(["lrs", "zrs", "grs", "ra-grs"], "Table Storage's redundancy, for the data stored").default("lrs"),
    "refresh-prices": flag("read current prices from Azure's Retail Prices API (and cache them)"),
    against: text("OTHER.tdl", "also price this design and show both side by side, table by table (a design and its quick fix)"),
    format: choice(["text", "json"], "text or json").default("text"),
    ...ANALYSIS.options,
  },
  async run({ positionals: [design], options }, io) {
    const text = readTextFile(design);
    const analysis = analyzeTdl(text, analysisOf(options));
    // Names and paths are checked before the Retail Prices API is asked: --table is a table of the design (or of --against's).
    const againstText = options.against === undefined ? undefined : readTextFile(options.against);
    const againstAnalysis = againstText === undefined ? undefined : analyzeTdl(againstText, analysisOf(options));
    const inAgainst = options.table !== undefined && !!againstAnalysis?.tables.some((t) => t.table.name.text === options.table);
    if (options.table !== undefined && !inAgainst) designTable(design, analysis, options.table);
    // No price of a load no account serves ($∞, or JSON's null): the rate is the design's mistake.
    declaredRates(design, analysis, { table: options.table });
    if (againstAnalysis) declaredRates(options.against!, againstAnalysis, { table: options.table });
    // Said before any price: a table with errors is left out of what follows.
    const broken = [
      { file: design, ...withErrors(analysis) },
      ...(againstAnalysis ? [{ file: options.against!, ...withErrors(againstAnalysis) }] : []),
    ].filter((d) => d.errors);
    for (const d of broken)
      io.err(
        `tdl: ${d.file} has ${plural(d.errors, "error")}: tables with errors are not priced${d.tables.size ? ` (${listNames([...d.tables], 12)})` : ""}; tdl check ${d.file} shows them\n`,
      );
    let choice: SheetChoice;
    if (options["refresh-prices"]) {
      try {
        choice = await refreshPrices(options.region);
      } catch (e) {
        const fallback = sheetFor(options.region);
        choice = {
          ...fallback,
          note: [`the Retail Prices API could not be reached (${(e as Error).message})`, fallback.note].filter(Boolean).join("; "),
        };
      }
    } else choice = sheetFor(options.region);
    const redundancy = options.redundancy.toUpperCase() as Redundancy;
    const priced = (a: TdlAnalysis) => designCost(a, { prices: choice.sheet, redundancy, table: options.table });
    const tables = priced(analysis);
    const source = choice.sheet.source === "snapshot" ? "the snapshot shipped with tdl" : "Azure's Retail Prices API";
    if (choice.note) io.err(`tdl: ${choice.note}\n`);
    const prices = {
      date: choice.sheet.date,
      region: choice.sheet.region,
      source: choice.sheet.source,
      redundancy,
      ...(choice.note ? { note: choice.note } : {}),
    };
    const other = againstAnalysis && { tables: priced(againstAnalysis) };
    const header = `prices of ${choice.sheet.region} on ${choice.sheet.date} (${source}), US dollars a month at the declared peak rates\n\n`;
    const stdout =
      options.format === "json"
        ? JSON.stringify({ prices, tables, ...(other ? { against: { design: options.against, tables: other.tables } } : {}) }, null, 2) +
          "\n"
        : other
          ? `${header}${sideBySide(design, tables, options.against!, other.tables)}`
          : `${header}${tables.map(tableText).join("\n")}`;
    return { stdout, stderr: "", exitCode: broken.length ? EXIT.findings : EXIT.clean };
  },
});

/** A design's errors, and the tables they are in (an error outside every table counts, but names none). */
function withErrors(a: TdlAnalysis): { errors: number; tables: Set<string> } {
  return { errors: a.findings.filter((f) => f.severity === "error").length, tables: tablesWithErrors(a) };
}

/** Each table's monthly figure per service in both designs, and the change; a table in one design only says so. */
function sideBySide(leftFile: string, left: TableCost[], rightFile: string, right: TableCost[]): string {
  const names = [...new Set([...left.map((t) => t.table), ...right.map((t) => t.table)])];
  const money = (e: ServiceEstimate | undefined) => (e === undefined ? "–" : e.monthlyUsd === null ? "not priced" : dollars(e.monthlyUsd));
  const rows: string[][] = [["table", "service", path.basename(leftFile), path.basename(rightFile), "change"]];
  for (const name of names) {
    const a = left.find((t) => t.table === name);
    const b = right.find((t) => t.table === name);
    const services = [...new Set([...(a?.estimates ?? []), ...(b?.estimates ?? [])].map((e) => e.service))];
    for (const service of services) {
      const ea = a?.estimates.find((e) => e.service === service);
      const eb = b?.estimates.find((e) => e.service === service);
      const change =
        ea?.monthlyUsd != null && eb?.monthlyUsd != null
          ? `${eb.monthlyUsd >= ea.monthlyUsd ? "+" : "−"}${dollars(Math.abs(eb.monthlyUsd - ea.monthlyUsd))}`
          : !a
            ? `only in ${path.basename(rightFile)}`
            : !b
              ? `only in ${path.basename(leftFile)}`
              : "–";
      rows.push([name, service, money(ea), money(eb), change]);
    }
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return (
    rows
      .map((r) =>
        r
          .map((c, i) => (i >= 2 ? c.padStart(widths[i]) : c.padEnd(widths[i])))
          .join("  ")
          .trimEnd(),
      )
      .join("\n") + "\n"
  );
}

function tableText(t: TableCost): string {
  const lines = [`${t.table}`];
  for (const e of t.estimates) lines.push(...estimateText(e));
  if (t.assumptions.length) lines.push(`  assumed: ${t.assumptions.join("; ")}`);
  return lines.join("\n") + "\n";
}

function estimateText(e: ServiceEstimate): string[] {
  const head = `  ${e.service.padEnd(13)} ${e.monthlyUsd === null ? "not priced" : dollars(e.monthlyUsd)}`;
  const out = [head];
  for (const l of e.lines)
    out.push(`    ${l.item}: ${formatQuantity(l.quantity)} ${l.unit}${l.monthlyUsd ? `, ${dollars(l.monthlyUsd)}` : ""}`);
  if (e.throughput)
    out.push(
      `    throughput side by side: provisioned ${dollars(e.throughput.provisioned)}, autoscale ${dollars(e.throughput.autoscale)}, serverless ${dollars(e.throughput.serverless)}`,
    );
  for (const n of e.notes) out.push(`    ${n}`);
  return out;
}
