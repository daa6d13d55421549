/**
 * What a stress run would cost on Table Storage, the stress report's line
 * of issue 23: the requests the service bills — each call, each page of a
 * query and each batch is one, and so are the requests it refused (a
 * throttled 503 is billed, and so is its retry) — at the price sheet's
 * transaction price (core/cost). A run of the design's own access
 * patterns also says what its rates cost for a month: the run's request
 * rate, divided by the scale the emulator ran the design at, over the
 * month `tdl cost` prices (so the figure is the design's, not the laptop's).
 */
import { priceOf, type PriceSheet } from "@core/cost/prices";
import { SECONDS_PER_MONTH } from "@core/cost/usage";
import { dollars, formatCount, plural } from "@core/text/words";
import { OP_TYPES, type StressReport } from "./stress-report";

export interface RunCost {
  /** Requests the service bills for the run: answered, retried and failed with an HTTP status. */
  requests: number;
  usd: number;
  /** Design runs: the design's rates for a month (the run's ÷ the emulator's scale). */
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

/** A scale as a reader can use it: 0.25, or 0.00070 (two significant digits) where whole-number formatting would say 0. */
function scaleText(k: number): string {
  return k >= 0.01 ? formatCount(k) : k.toPrecision(2);
}

/** The report's line: what the run cost on Table Storage and, for a design's run, its rates for a month; with the sheet's region and date. */
export function runCostLine(r: StressReport, prices: PriceSheet): string {
  const c = runCost(r, prices);
  const scaled =
    r.calibration && r.calibration.scale !== 1 ? ` (this run's rate ÷ ${scaleText(r.calibration.scale)}, the scale it ran at)` : "";
  const month = c.monthUsd === undefined ? "" : `; the design's rates${scaled} for a month ≈ ${dollars(c.monthUsd, "small")}`;
  return `On Table Storage this run's ${plural(c.requests, "request")} (each call, query page and batch is one; retries and refused requests are billed too) ≈ ${dollars(c.usd, "small")}${month} — prices of ${prices.region} on ${prices.date}.`;
}
