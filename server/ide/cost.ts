/**
 * What a table costs a month, where the design is written: a CodeLens line
 * above each table ("≈ $189.22/month on Table Storage · $584.00 on Cosmos
 * DB") and a hover on its name with each profile's figure, what it pays
 * for, the price sheet's date and region, and the peak-rate assumption.
 *
 * The figures are `tdl cost`'s (core/cost/estimate.ts) on the price
 * snapshot shipped with the extension: the language server does not go to
 * the network, so `tdl cost --refresh-prices` is where current prices are
 * read. Each table is priced once per analysis, only when a lens or hover
 * asks for it, so a large design costs no more than the tables shown.
 */
import {
  designCost,
  SERVICES,
  SNAPSHOT,
  type ServiceEstimate,
  type ServiceName,
  type TableCost,
  type TableModel,
  type TdlAnalysis,
} from "@core";
import { formatCount } from "@core/text/words";

/** The sheet every figure here uses. */
export const PRICES = SNAPSHOT;

const priced = new WeakMap<TableModel, TableCost | null>();

/** The table's cost on each profile; undefined when it is not priced (errors, or no name). */
export function tableCost(analysis: TdlAnalysis, tm: TableModel): TableCost | undefined {
  if (!priced.has(tm)) {
    // One table at a time: designCost reads only `tables` of the analysis.
    const [cost] = tm.checked && tm.table.name.text ? designCost({ ...analysis, tables: [tm] }, { prices: PRICES }) : [];
    priced.set(tm, cost ?? null);
  }
  return priced.get(tm) ?? undefined;
}

const SHORT: Record<ServiceName, string> = { "azure-table": "Table Storage", "cosmos-table": "Cosmos DB", tablestore: "Tablestore" };

export const usd = (n: number) => `$${n.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** A quantity as a reader takes it in: two decimals below 10, whole and grouped above. */
const qty = (n: number) => (n < 10 ? n.toLocaleString("en-US", { maximumFractionDigits: 2 }) : formatCount(Math.round(n)));

/** Whether the declared load costs anything: a rate or stored rows (a table without either is free on every service). */
function hasLoad(cost: TableCost): boolean {
  return cost.estimates.some((e) => (e.monthlyUsd ?? 0) > 0);
}

/** The estimates in the order a reader of this design wants them: its own service first. */
function ordered(cost: TableCost, service: ServiceName | undefined): ServiceEstimate[] {
  const first = service ?? "azure-table";
  return [...cost.estimates].sort((a, b) => Number(b.service === first) - Number(a.service === first));
}

/** The units a service the sheet does not price bills (Tablestore's capacity units), summed. */
function units(e: ServiceEstimate): string {
  const perUnit = new Map<string, number>();
  for (const l of e.lines) if (l.quantity > 0) perUnit.set(l.unit, (perUnit.get(l.unit) ?? 0) + l.quantity);
  return [...perUnit].map(([unit, n]) => `${qty(n)} ${unit}`).join(" + ") || "nothing";
}

/**
 * The lens line of a table: "≈ $189.22/month on Table Storage · $584.00 on
 * Cosmos DB"; a Tablestore design leads with the capacity units it bills
 * ("≈ 52,560,000 CU/month on Tablestore (not priced) · $1.89 on Table
 * Storage · …"), which the sheet has no price for. Undefined when the table
 * declares nothing to price.
 */
export function costLens(analysis: TdlAnalysis, tm: TableModel): string | undefined {
  const cost = tableCost(analysis, tm);
  if (!cost || !hasLoad(cost)) return undefined;
  const service = analysis.profile.name;
  const shown = ordered(cost, service).filter((e) => e.monthlyUsd !== null || e.service === service);
  return shown
    .map((e, i) => {
      const figure = e.monthlyUsd === null ? `${units(e)}/month` : `${usd(e.monthlyUsd)}${i === 0 ? "/month" : ""}`;
      return `${i === 0 ? "≈ " : ""}${figure} on ${SHORT[e.service]}${e.monthlyUsd === null ? " (not priced)" : ""}`;
    })
    .join(" · ");
}

/** The hover on a table's name: each profile's monthly figure and what it pays for, the prices' date and region, the assumptions. */
export function costHover(analysis: TdlAnalysis, tm: TableModel): string {
  const name = tm.table.name.text;
  const cost = tableCost(analysis, tm);
  if (!cost) return `**${name}** — not priced: the table has errors (\`tdl cost\` prices tables that check)`;
  if (!hasLoad(cost))
    return `**${name}** — nothing to price yet: declare peak rates (\`insert Add 100/s\`, \`query ByX 50/s …\`) and \`rows\`, and the hover gives the monthly cost per service`;
  const lines = [
    `**${name}** — a month at the declared peak rates`,
    "",
    "| service | a month | what it pays for |",
    "| --- | ---: | --- |",
    ...ordered(cost, analysis.profile.name).map(
      (e) =>
        `| ${SERVICES[e.service].label} | ${e.monthlyUsd === null ? "not priced" : usd(e.monthlyUsd)} | ${paysFor(e).replace(/\|/g, "\\|")} |`,
    ),
    "",
    `- prices of ${PRICES.region} on ${PRICES.date}, in US dollars: the snapshot shipped with the extension (\`tdl cost --refresh-prices --region R\` reads current ones)`,
    "- peak rates: the month is priced as if the declared peak lasted all month — what the design must be able to pay, not an average",
  ];
  for (const a of cost.assumptions) lines.push(`- assumed: ${a}`);
  for (const e of cost.estimates) for (const n of e.notes) lines.push(`- ${SHORT[e.service]}: ${n}`);
  return lines.join("\n");
}

function paysFor(e: ServiceEstimate): string {
  // A throughput line names its RU/s already.
  const parts = e.lines.filter((l) => l.quantity > 0).map((l) => (l.unit === "RU/s" ? l.item : `${l.item}: ${qty(l.quantity)} ${l.unit}`));
  if (e.throughput)
    parts.push(
      `autoscale ${usd(e.throughput.autoscale)}, provisioned ${usd(e.throughput.provisioned)}, serverless ${usd(e.throughput.serverless)}`,
    );
  return parts.join("; ") || "nothing";
}
