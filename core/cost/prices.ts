/**
 * The prices a cost estimate multiplies by: one sheet per region, each price
 * with the meter it comes from (Azure's Retail Prices API names a meter by
 * service, product, SKU and meter name, with its unit). The extension ships
 * a dated snapshot (snapshot.ts); `tdl cost --refresh-prices` replaces it
 * from the API when the network allows, and every figure says which sheet,
 * of which date and region, it used.
 */

/** Where a price comes from, as the Retail Prices API names it. */
export interface Meter {
  serviceName: string;
  productName: string;
  skuName: string;
  meterName: string;
  /** The unit the price is quoted per: "10K" transactions, "1 GB/Month", "1/Hour" for 100 RU/s, "1M" request units. */
  unitOfMeasure: string;
  /** US dollars per unit. */
  retailPrice: number;
}

/** The meters an estimate needs, by what they price. */
export interface PriceSheet {
  region: string;
  currency: "USD";
  /** The day the prices were read. */
  date: string;
  /** `snapshot`: shipped with the extension; `api`: read from the Retail Prices API (cached). */
  source: "snapshot" | "api";
  tableTransactions: Meter;
  tableStorage: Record<Redundancy, Meter>;
  cosmosProvisioned: Meter;
  cosmosAutoscale: Meter;
  cosmosServerless: Meter;
  cosmosStorage: Meter;
  /** Tablestore's capacity units, when known (Alibaba Cloud publishes no meter in Azure's API). */
  tablestoreReadCU?: Meter;
  tablestoreWriteCU?: Meter;
}

export type Redundancy = "LRS" | "ZRS" | "GRS" | "RA-GRS";
export const REDUNDANCIES: readonly Redundancy[] = ["LRS", "ZRS", "GRS", "RA-GRS"];

/** Units per meter's `unitOfMeasure`: "10K" is 10,000 transactions, "1M" a million request units. */
export function unitSize(unitOfMeasure: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*([KM])?/.exec(unitOfMeasure.trim());
  if (!m) return 1;
  return Number(m[1]) * (m[2] === "K" ? 1_000 : m[2] === "M" ? 1_000_000 : 1);
}

/** The price of `quantity` units of a meter. */
export function priceOf(meter: Meter, quantity: number): number {
  return (quantity / unitSize(meter.unitOfMeasure)) * meter.retailPrice;
}
