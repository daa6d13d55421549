/**
 * A design's monthly cost per service profile, from its tables' usage
 * (usage.ts) and a price sheet (prices.ts):
 *
 * - Table Storage bills requests (a batch of up to 100 entities is one, each
 *   page of a query is one, throttled requests are billed too) and the data
 *   kept, per redundancy.
 * - Cosmos DB for Table bills request units: 1 per KiB read, 5 per KiB
 *   written (docs/service-facts.md), a query by what it scans. Logical
 *   partitions are placed on physical ones by hash, so key order makes no
 *   hot physical partition: only a hot logical partition (a key value many
 *   entities share) does. Provisioned throughput must let that logical
 *   partition have what it needs of its physical partition's even share, so
 *   skew raises it above the average; provisioned, autoscale and serverless
 *   stand side by side.
 * - Tablestore bills capacity units: one per 4 KiB written per row; a read
 *   by the total size it returns, in 4 KiB units (a range read of small rows
 *   costs less than a unit a row).
 *
 * Every profile is priced over the same month of 730 hours (usage.ts).
 *
 * docs/cost.md works one example out by hand; the tests check these figures
 * against it.
 */
import { tableAt, type TdlAnalysis } from "../analysis/analyze";
import { tableFacts } from "../model/facts";
import { formatCount } from "../text/words";
import { ServiceName, SERVICES } from "../services";
import { priceOf, PriceSheet, Redundancy } from "./prices";
import { HOURS_PER_MONTH, SECONDS_PER_MONTH, TableUsage, tableUsage } from "./usage";

export { HOURS_PER_MONTH } from "./usage";

const GB = 1024 ** 3;
const KIB = 1024;
/** A physical partition of Cosmos DB serves at most 10,000 RU/s and holds at most 50 GB. */
const PHYSICAL_RU = 10_000;
const PHYSICAL_GB = 50;
/** Cosmos DB provisions at least 400 RU/s, in steps of 100. */
const MIN_RU = 400;
/** A serverless container serves at most 5,000 RU/s and holds at most 1 TB (Cosmos DB's serverless limits). */
const SERVERLESS_RU = 5000;
const SERVERLESS_GB = 1024;

/** One billed item: what, how many of what unit, and what it costs a month. */
export interface CostLine {
  item: string;
  quantity: number;
  unit: string;
  monthlyUsd: number;
}

export interface ServiceEstimate {
  service: ServiceName;
  /** The cheapest way to run it (Cosmos: provisioned, autoscale or serverless, whichever costs least). */
  monthlyUsd: number | null;
  lines: CostLine[];
  transactionsPerMonth?: number;
  storageGb?: number;
  requestUnitsPerSecond?: number;
  /** Cosmos DB: the three ways to pay for throughput, side by side. */
  throughput?: { provisioned: number; autoscale: number; serverless: number };
  notes: string[];
}

export interface TableCost {
  table: string;
  estimates: ServiceEstimate[];
  assumptions: string[];
}

export interface CostOptions {
  prices: PriceSheet;
  redundancy?: Redundancy;
  services?: readonly ServiceName[];
  table?: string;
}

/** The tables of a design that hold an error: not priced, by `tdl cost`, the agent tools and the editor alike. */
export function tablesWithErrors(analysis: TdlAnalysis): Set<string> {
  const names = new Set<string>();
  for (const f of analysis.findings) {
    if (f.severity !== "error") continue;
    const tm = tableAt(analysis, f.start);
    if (tm) names.add(tm.table.name.text);
  }
  return names;
}

/** The monthly cost of each table of a design on each service profile; a table with errors is not priced. */
export function designCost(analysis: TdlAnalysis, o: CostOptions): TableCost[] {
  const services = o.services ?? (["azure-table", "cosmos-table", "tablestore"] as const);
  const broken = tablesWithErrors(analysis);
  return analysis.tables
    .filter((tm) => tm.checked && (o.table === undefined || tm.table.name.text === o.table) && !broken.has(tm.table.name.text))
    .map((tm) => {
      const facts = tableFacts(tm.table, tm.props);
      const usages = services.map((s) => [s, tableUsage(tm.table.name.text, facts, SERVICES[s])] as const);
      return {
        table: tm.table.name.text,
        estimates: usages.map(([s, u]) => estimateFor(s, u, o)),
        assumptions: usages[0]?.[1].assumptions ?? [],
      };
    });
}

function estimateFor(service: ServiceName, u: TableUsage, o: CostOptions): ServiceEstimate {
  switch (service) {
    case "azure-table":
      return tableStorage(u, o.prices, o.redundancy ?? "LRS");
    case "cosmos-table":
      return cosmosTable(u, o.prices);
    case "tablestore":
      return tablestore(u, o.prices);
  }
}

const round2 = (n: number) => Math.round(n * 100) / 100;
const sum = (lines: CostLine[]) => round2(lines.reduce((n, l) => n + l.monthlyUsd, 0));

function tableStorage(u: TableUsage, p: PriceSheet, redundancy: Redundancy): ServiceEstimate {
  const transactions = Math.round(u.requestsPerSecond * SECONDS_PER_MONTH);
  const throttled = Math.round(u.throttledPerSecond * SECONDS_PER_MONTH);
  const gb = (u.storedBytes ?? 0) / GB;
  const lines: CostLine[] = [
    {
      item: "requests (a batch or a query page is one)",
      quantity: transactions,
      unit: "transactions",
      monthlyUsd: priceOf(p.tableTransactions, transactions),
    },
  ];
  if (throttled)
    lines.push({
      item: "throttled requests retried (503 ServerBusy is billed)",
      quantity: throttled,
      unit: "transactions",
      monthlyUsd: priceOf(p.tableTransactions, throttled),
    });
  if (gb)
    lines.push({
      item: `data stored (${redundancy})`,
      quantity: gb,
      unit: "GB-months",
      monthlyUsd: priceOf(p.tableStorage[redundancy], gb),
    });
  return {
    service: "azure-table",
    monthlyUsd: sum(lines),
    lines: lines.map((l) => ({ ...l, monthlyUsd: round2(l.monthlyUsd) })),
    transactionsPerMonth: transactions + throttled,
    storageGb: round2(gb),
    notes: throttled
      ? [
          `the hottest partition takes ≈ ${formatCount(Math.round(u.hottest))} entities/s against ${formatCount(u.target ?? 0)}: its excess is throttled, retried and billed`,
        ]
      : [],
  };
}

function cosmosTable(u: TableUsage, p: PriceSheet): ServiceEstimate {
  const kib = Math.max(1, Math.ceil(u.entityBytes / KIB));
  const pages = u.patterns.reduce((n, x) => n + (x.pagesPerCall ? x.requestsPerSecond : 0), 0);
  const totalRU = u.entitiesWrittenPerSecond * 5 * kib + Math.max(u.entitiesReadPerSecond * kib, pages);
  const gb = (u.storedBytes ?? 0) / GB;
  // The provisioned RU/s are split evenly over physical partitions: the hottest logical partition needs its own share of it.
  let provisioned = Math.max(MIN_RU, Math.ceil(totalRU / 100) * 100);
  for (let i = 0; i < 8; i++) {
    const physical = Math.max(1, Math.ceil(gb / PHYSICAL_GB), Math.ceil(provisioned / PHYSICAL_RU));
    const needed = Math.max(MIN_RU, Math.ceil(Math.max(totalRU, Math.min(u.hottestLogicalRU, PHYSICAL_RU) * physical) / 100) * 100);
    if (needed === provisioned) break;
    provisioned = needed;
  }
  const hours = (meter: typeof p.cosmosProvisioned) => priceOf(meter, (provisioned / 100) * HOURS_PER_MONTH);
  const throughput = {
    provisioned: round2(hours(p.cosmosProvisioned)),
    autoscale: round2(hours(p.cosmosAutoscale)),
    serverless: round2(priceOf(p.cosmosServerless, totalRU * SECONDS_PER_MONTH)),
  };
  const serverlessFits = totalRU <= SERVERLESS_RU && gb <= SERVERLESS_GB;
  const cheapest = (Object.entries(throughput) as Array<[keyof typeof throughput, number]>)
    .filter(([mode]) => mode !== "serverless" || serverlessFits)
    .reduce((a, b) => (b[1] < a[1] ? b : a));
  const lines: CostLine[] = [
    {
      item: `throughput, ${cheapest[0]} (${formatCount(provisioned)} RU/s)`,
      quantity: provisioned,
      unit: "RU/s",
      monthlyUsd: cheapest[1],
    },
  ];
  if (gb) lines.push({ item: "data stored", quantity: gb, unit: "GB-months", monthlyUsd: round2(priceOf(p.cosmosStorage, gb)) });
  const notes = [];
  if (provisioned > Math.ceil(totalRU / 100) * 100 && provisioned > MIN_RU)
    notes.push(
      `the hottest logical partition needs ≈ ${formatCount(Math.round(u.hottestLogicalRU))} RU/s of its physical partition's even share, so ${formatCount(provisioned)} RU/s are provisioned for ≈ ${formatCount(Math.round(totalRU))} RU/s of load`,
    );
  if (u.hottestLogicalRU > PHYSICAL_RU)
    notes.push(
      `the hottest logical partition needs more than a physical partition serves (${formatCount(PHYSICAL_RU)} RU/s): it will be throttled whatever is provisioned`,
    );
  notes.push("autoscale bills each hour's highest RU/s; at a steady peak it costs 1.5 × provisioned");
  if (!serverlessFits)
    notes.push(`serverless does not fit: a serverless container serves at most ${formatCount(SERVERLESS_RU)} RU/s and holds at most 1 TB`);
  return {
    service: "cosmos-table",
    monthlyUsd: sum(lines),
    lines,
    requestUnitsPerSecond: provisioned,
    storageGb: round2(gb),
    throughput,
    notes,
  };
}

/**
 * Read capacity units a second: a point read is one per 4 KiB of its row; a
 * range read is billed by the total size it reads, in 4 KiB units — not a
 * unit per row (100 rows of 1 KiB are 25 units, not 100).
 */
function tablestoreReadUnits(u: TableUsage): number {
  let units = 0;
  for (const x of u.patterns) {
    if (!x.entitiesReadPerSecond) continue;
    const calls = x.requestsPerSecond / Math.max(1, x.pagesPerCall ?? 1);
    const rowsPerCall = x.entitiesReadPerSecond / Math.max(calls, Number.MIN_VALUE);
    units += calls * Math.max(1, Math.ceil((rowsPerCall * u.entityBytes) / (4 * KIB)));
  }
  return units;
}

function tablestore(u: TableUsage, p: PriceSheet): ServiceEstimate {
  const cu = Math.max(1, Math.ceil(u.entityBytes / (4 * KIB)));
  const reads = Math.round(tablestoreReadUnits(u) * SECONDS_PER_MONTH);
  const writes = Math.round(u.entitiesWrittenPerSecond * cu * SECONDS_PER_MONTH);
  const priced = p.tablestoreReadCU && p.tablestoreWriteCU;
  const lines: CostLine[] = [
    {
      item: "read capacity units (4 KiB each)",
      quantity: reads,
      unit: "CU",
      monthlyUsd: priced ? round2(priceOf(p.tablestoreReadCU!, reads)) : 0,
    },
    {
      item: "write capacity units (4 KiB each)",
      quantity: writes,
      unit: "CU",
      monthlyUsd: priced ? round2(priceOf(p.tablestoreWriteCU!, writes)) : 0,
    },
  ];
  return {
    service: "tablestore",
    monthlyUsd: priced ? sum(lines) : null,
    lines,
    notes: priced ? [] : ["Alibaba Cloud's prices are not in this price sheet: the capacity units are what it bills"],
  };
}
