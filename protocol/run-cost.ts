/**
 * What a stress run costs on Table Storage, the stress report's cost line:
 * first the design's declared load for a month, priced by `tdl cost`'s own
 * function when the run was built (the report's `cost`, runtime/stress's
 * declaredCost), then, apart, what the run itself billed — each call, each
 * page of a query and each batch is one request, and so are the requests
 * it refused (a throttled 503 is billed, and so is its retry) — at the
 * price sheet's transaction price (core/cost).
 */
import { priceOf, type PriceSheet } from "@core/cost/prices";
import { SECONDS_PER_MONTH } from "@core/cost/usage";
import { dollars, plural } from "@core/text/words";
import { OP_TYPES, type StressReport } from "./stress-report";

export interface RunCost {
  /** Requests the service bills for the run: answered, retried and failed with an HTTP status. */
  requests: number;
  usd: number;
  /**
   * Design runs: the run's own request rate, ÷ the emulator's scale, for a
   * month. Not the design's price (a throttled run sends less than the
   * design declares): the report shows `report.cost`, which is.
   */
  monthUsd?: number;
}

export function runCost(r: StressReport, prices: PriceSheet): RunCost {
  let requests = 0;
  for (const op of OP_TYPES) {
    const o = r.operations[op];
    // A failure keyed by an HTTP status reached the service; one refused before it was sent (or lost on the way) did not.
    const failed = Object.entries(o.errors).reduce((n, [status, k]) => n + (/^\d{3}$/.test(status) ? k : 0), 0);
    requests += o.count + o.retries + failed;
  }
  const usd = priceOf(prices.tableTransactions, requests);
  if (r.mode !== "design") return { requests, usd };
  const perSecond = requests / (Math.max(1, r.durationMs) / 1000) / (r.calibration?.scale ?? 1);
  return { requests, usd, monthUsd: priceOf(prices.tableTransactions, perSecond * SECONDS_PER_MONTH) };
}

/** The design's declared load for a month, as `tdl cost` prices it; undefined for a run that carries no such figure. */
export function designCostSentence(r: StressReport): string | undefined {
  const c = r.cost;
  if (!c) return undefined;
  return c.designMonthlyUsd === null
    ? `The design's table ${r.design.table} has errors, so its declared load is not priced (tdl cost ${r.design.file}).`
    : `The design's declared load (table ${r.design.table}) costs ≈ ${dollars(c.designMonthlyUsd)} a month on Table Storage, as tdl cost prices it (prices of ${c.prices.region} on ${c.prices.date}).`;
}

/** What the run itself billed, in a sentence, with the sheet's region and date. */
export function runBillSentence(r: StressReport, prices: PriceSheet): string {
  const c = runCost(r, prices);
  return `This run billed ${plural(c.requests, "request")} ≈ ${dollars(c.usd, "small")} (each call, query page and batch is one; retries and refused requests too) — prices of ${prices.region} on ${prices.date}.`;
}

/** The report's cost line: the design's month first (when the report carries it), then the run's own bill. */
export function runCostLine(r: StressReport, prices: PriceSheet): string {
  return [designCostSentence(r), runBillSentence(r, prices)].filter(Boolean).join(" ");
}
