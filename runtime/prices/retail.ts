/**
 * Current prices from Azure's Retail Prices API
 * (https://prices.azure.com/api/retail/prices, no sign-in), for a region,
 * cached with the day they were read; and the sheet a cost estimate uses:
 * the cache for the region when there is one, else the snapshot shipped
 * with the extension — always saying which.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Meter, PriceSheet, SNAPSHOT, stringLiteral } from "@core";

/** The API; `TDL_PRICES_URL` points elsewhere (a mirror, or a test's address where nothing answers). */
const API = process.env.TDL_PRICES_URL || "https://prices.azure.com/api/retail/prices";
/** Pages of the API read at most (100 items each). */
const MAX_PAGES = 40;

/** The cache folder: $XDG_CACHE_HOME/tdl, else ~/.cache/tdl. */
export function cacheFolder(): string {
  return path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "tdl");
}

const cacheFile = (region: string) => path.join(cacheFolder(), `prices-${region.replace(/[^a-z0-9-]/gi, "")}.json`);

export interface SheetChoice {
  sheet: PriceSheet;
  /** Why this sheet, when it is not what was asked for (no network, another region…). */
  note?: string;
}

/** The sheet for `region`: a cached read of the API, or the snapshot (with a note when the snapshot is of another region). */
export function sheetFor(region: string): SheetChoice {
  try {
    const cached = JSON.parse(fs.readFileSync(cacheFile(region), "utf8")) as PriceSheet;
    if (cached.region === region && cached.tableTransactions) return { sheet: cached };
  } catch {
    // no cache for this region
  }
  if (region === SNAPSHOT.region) return { sheet: SNAPSHOT };
  return {
    sheet: SNAPSHOT,
    note: `no prices for ${region} are cached: these are ${SNAPSHOT.region}'s (run with --refresh-prices to read ${region}'s)`,
  };
}

interface ApiItem {
  serviceName: string;
  productName: string;
  skuName: string;
  meterName: string;
  unitOfMeasure: string;
  retailPrice: number;
  armRegionName: string;
  type: string;
  tierMinimumUnits?: number;
}

/** Reads the region's prices from the API and caches them; throws (UnavailableError's words) when the API cannot be reached. */
export async function refreshPrices(region: string, signal?: AbortSignal): Promise<SheetChoice> {
  // The region is the user's text: an OData string literal (quotes doubled), never a piece of the filter's syntax.
  const filter = `armRegionName eq ${stringLiteral(region)} and priceType eq 'Consumption' and (productName eq 'Tables' or serviceName eq 'Azure Cosmos DB')`;
  let url: string | undefined = `${API}?currencyCode='USD'&$filter=${encodeURIComponent(filter)}`;
  const items: ApiItem[] = [];
  for (let page = 0; url && page < MAX_PAGES; page++) {
    const res = await fetch(url, { signal: signal ?? AbortSignal.timeout(15_000) });
    if (!res.ok) throw new Error(`the Retail Prices API answered ${res.status}`);
    const body = (await res.json()) as { Items: ApiItem[]; NextPageLink?: string | null };
    items.push(...body.Items);
    url = body.NextPageLink ?? undefined;
  }
  const { sheet, missing } = sheetFromItems(region, items);
  fs.mkdirSync(cacheFolder(), { recursive: true });
  fs.writeFileSync(cacheFile(region), JSON.stringify(sheet, null, 1) + "\n");
  return {
    sheet,
    note: missing.length ? `the API has no ${missing.join(", ")} for ${region}: the snapshot's are used for them` : undefined,
  };
}

/** The sheet the API's items give, the snapshot's meter for any it lacks (named in `missing`). */
export function sheetFromItems(region: string, items: ApiItem[]): { sheet: PriceSheet; missing: string[] } {
  const missing: string[] = [];
  const find = (what: string, fallback: Meter, test: (i: ApiItem) => boolean): Meter => {
    // The first tier of a tiered meter (data stored: the first 1 TB).
    const hit = items.filter(test).sort((a, b) => (a.tierMinimumUnits ?? 0) - (b.tierMinimumUnits ?? 0))[0];
    if (!hit) {
      missing.push(what);
      return fallback;
    }
    const { serviceName, productName, skuName, meterName, unitOfMeasure, retailPrice } = hit;
    return { serviceName, productName, skuName, meterName, unitOfMeasure, retailPrice };
  };
  const tables = (i: ApiItem) => i.productName === "Tables";
  const stored = (sku: string) => (i: ApiItem) => tables(i) && i.skuName === `Standard ${sku}` && /Data Stored/i.test(i.meterName);
  const cosmos = (i: ApiItem) => i.serviceName === "Azure Cosmos DB";
  const s = SNAPSHOT;
  const sheet: PriceSheet = {
    region,
    currency: "USD",
    date: new Date().toISOString().slice(0, 10),
    source: "api",
    tableTransactions: find(
      "Table transactions",
      s.tableTransactions,
      (i) => tables(i) && i.skuName === "Standard LRS" && /Operations|Transactions/i.test(i.meterName) && i.unitOfMeasure === "10K",
    ),
    tableStorage: {
      LRS: find("LRS data stored", s.tableStorage.LRS, stored("LRS")),
      ZRS: find("ZRS data stored", s.tableStorage.ZRS, stored("ZRS")),
      GRS: find("GRS data stored", s.tableStorage.GRS, stored("GRS")),
      "RA-GRS": find("RA-GRS data stored", s.tableStorage["RA-GRS"], stored("RA-GRS")),
    },
    cosmosProvisioned: find(
      "Cosmos DB provisioned throughput",
      s.cosmosProvisioned,
      (i) => cosmos(i) && i.meterName === "100 RU/s" && i.skuName === "RUs",
    ),
    cosmosAutoscale: find(
      "Cosmos DB autoscale throughput",
      s.cosmosAutoscale,
      (i) => cosmos(i) && i.meterName === "100 RU/s" && i.skuName === "RUm",
    ),
    cosmosServerless: find("Cosmos DB serverless request units", s.cosmosServerless, (i) => cosmos(i) && /1M RUs/i.test(i.meterName)),
    cosmosStorage: find(
      "Cosmos DB data stored",
      s.cosmosStorage,
      (i) => cosmos(i) && i.meterName === "Data Stored" && i.skuName === "Standard",
    ),
  };
  return { sheet, missing };
}
