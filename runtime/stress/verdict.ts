/**
 * The verdict of a run: did a partition run hot? It does when the service
 * (or the emulator's fidelity layer at the scaled targets) throttled
 * requests at a partition or at the range partition at an end of the key
 * order, when the hottest partition took more than the target, or when new
 * keys kept landing beyond the end of the key order faster than one
 * partition may take (append-only). Account-level throttling is reported
 * apart: it is not a partition's problem.
 */
import { clip, entityRate, formatCount, plural } from "@core/text/words";
import type { Calibration, Verdict } from "@protocol/stress-report";

/** Throttled requests at partitions above this share of all requests make the run hot (a stray one does not). */
const HOT_SHARE = 0.01;

export interface VerdictInput {
  target: "emulator" | "account";
  partitionTarget: number;
  hottest: { partitionKey?: string; entitiesPerSecond: number };
  partitions: number;
  throttled: { partition: number; account: number };
  requests: number;
  /** Entities beyond the end (or start) of the key order per second, and which end. */
  beyond: { entitiesPerSecond: number; end: "end" | "start" };
  /** The partition most throttled, with what it served and what was sent to it (served + throttled entities, per second; the field keeps its first name). */
  mostThrottled?: { partitionKey: string; servedPerSecond: number; offeredPerSecond: number };
  calibration?: Calibration;
}

export function verdictOf(v: VerdictInput): Verdict {
  const share = v.requests + v.throttled.partition ? v.throttled.partition / (v.requests + v.throttled.partition) : 0;
  const reason =
    share >= HOT_SHARE && v.throttled.partition > 1
      ? "throttled"
      : v.hottest.entitiesPerSecond > v.partitionTarget
        ? "hottest-partition"
        : v.beyond.entitiesPerSecond > v.partitionTarget
          ? "append-only"
          : undefined;
  const target = `${formatCount(v.partitionTarget)} entities/s`;
  const where =
    v.beyond.entitiesPerSecond > v.partitionTarget / 2
      ? `the range partition at the ${v.beyond.end} of the key order, where new partition keys kept landing (≈ ${formatCount(v.beyond.entitiesPerSecond)} entities/s: an ${v.beyond.end === "end" ? "append" : "prepend"}-only load)`
      : `partition '${clip(v.hottest.partitionKey ?? "?", 40)}'`;
  const scaled =
    v.calibration && v.calibration.scale !== 1
      ? ` (Azure's ${formatCount(v.calibration.azure.partitionTargetEntitiesPerSecond)} entities/s scaled to this machine)`
      : "";
  const sentences: string[] = [];
  const place = v.target === "emulator" ? "On the emulator" : "Against the account";
  sentences.push(
    `${place}: the hottest partition took ≈ ${entityRate(v.hottest.entitiesPerSecond)} (${plural(v.partitions, "partition")} touched).`,
  );
  // Only a calibrated run compares against scaled targets; an uncalibrated one shows the load's shape against Azure's own.
  if (v.target === "emulator")
    sentences.push(
      v.calibration
        ? "This shows the design's load shape against Azure's targets scaled to what this machine serves, not Azure's limits."
        : "This shows the design's load shape on this machine, not Azure's limits.",
    );
  if (reason === "throttled") {
    sentences.push(
      `Hot: ${plural(v.throttled.partition, "request")} (${formatCount(share * 100)} %) were throttled (503 Server Busy) at ${where}, above the ${target} partition target${scaled}. On Azure this partition would run hot and be throttled.`,
    );
  } else if (reason === "hottest-partition") {
    sentences.push(`Hot: ${where} took more than the ${target} partition target${scaled}: on Azure it would run hot and be throttled.`);
  } else if (reason === "append-only") {
    sentences.push(
      `Hot: ${where} took more than the ${target} partition target${scaled}: on Azure that one server would run hot and be throttled.`,
    );
  } else {
    sentences.push(
      `No partition reached the ${target} partition target${scaled}${v.throttled.partition ? ` (${plural(v.throttled.partition, "request")} throttled at a partition, under 1 % of the load)` : ""}.`,
    );
  }
  if (v.throttled.account) {
    const account = v.calibration
      ? `${formatCount(v.calibration.accountTargetEntitiesPerSecond)} entities/s, Azure's ${formatCount(v.calibration.azure.accountTargetEntitiesPerSecond)} scaled`
      : "the account's target";
    sentences.push(
      `The account target (${account}) was reached: ${plural(v.throttled.account, "request")} throttled at the account, which spreading keys does not change.`,
    );
  }
  if (v.target === "emulator" && !v.calibration?.throttled) {
    sentences.push(
      "This emulator does not throttle (no fidelity layer in front of it): the verdict compares the measured rates with the target.",
    );
  }
  const said = headlineOf(v, reason, share);
  return {
    headline: `${said.verdict} ${said.cause}`,
    verdictSentence: said.verdict,
    cause: said.cause,
    details: sentences,
    partitionTargetEntitiesPerSecond: v.partitionTarget,
    hottestPartitionEntitiesPerSecond: v.hottest.entitiesPerSecond,
    exceedsTarget: reason !== undefined,
    note: sentences.join(" "),
    throttled: { partition: v.throttled.partition, account: v.throttled.account, share: Math.round(share * 10000) / 10000 },
    keyRangeEndEntitiesPerSecond: v.beyond.entitiesPerSecond,
    ...(reason ? { reason } : {}),
  };
}

/**
 * The verdict in two sentences: what it is, then what decided it. A
 * throttled run is hot because of its 503s, whatever rate the partition
 * managed to serve (a throttled partition serves less than it is sent, often
 * less than the target), so its cause shows the share and the sent rate
 * beside the served one.
 */
function headlineOf(v: VerdictInput, reason: Verdict["reason"], share: number): { verdict: string; cause: string } {
  const target = formatCount(v.partitionTarget);
  const percent = share >= 0.995 ? "100" : share >= 0.1 ? String(Math.round(share * 100)) : formatCount(share * 100);
  switch (reason) {
    case "throttled": {
      const at = v.mostThrottled;
      return at
        ? {
            verdict: `HOT: partition '${clip(at.partitionKey, 40)}' would run hot on Azure.`,
            cause: `${percent} % of requests were throttled there: sent ≈ ${formatCount(at.offeredPerSecond)} entities/s, served ${formatCount(at.servedPerSecond)}, target ${target}.`,
          }
        : {
            verdict: "HOT: a partition would run hot on Azure.",
            cause: `${percent} % of requests were throttled at a partition (target ${target} entities/s).`,
          };
    }
    case "hottest-partition":
      return {
        verdict: `HOT: partition '${clip(v.hottest.partitionKey ?? "?", 40)}' would run hot on Azure.`,
        cause: `It served ${entityRate(v.hottest.entitiesPerSecond)}, above the target of ${target}.`,
      };
    case "append-only":
      return {
        verdict: `HOT: the range partition at the ${v.beyond.end} of the key order would run hot on Azure.`,
        cause: `New keys kept landing there at ≈ ${entityRate(v.beyond.entitiesPerSecond)}, above the target of ${target} (${v.beyond.end === "end" ? "append" : "prepend"}-only).`,
      };
    default:
      return {
        verdict: "OK: no partition would run hot.",
        cause: `The hottest partition served ${entityRate(v.hottest.entitiesPerSecond)}, under the target of ${target}${v.throttled.account ? `; the account was throttled (${plural(v.throttled.account, "request")})` : ""}.`,
      };
  }
}

/** What the calibration did, in a sentence, for the report. */
export function calibrationNote(c: Calibration, rates: Array<{ source: string; perSecond: number }>): string {
  const how =
    c.capacityEntitiesPerSecond !== undefined
      ? `The emulator was calibrated at ${entityRate(c.capacityEntitiesPerSecond)} (a short probe of spread inserts), and Azure's targets scaled by ${formatScale(c.scale)} to fit it`
      : `Azure's targets were scaled by ${formatScale(c.scale)} (as asked)`;
  const targets =
    `the account target ${formatCount(c.azure.accountTargetEntitiesPerSecond)} → ${entityRate(c.accountTargetEntitiesPerSecond)}${c.capacityEntitiesPerSecond !== undefined ? " (half of it, so a busy machine still serves it)" : ""}, ` +
    `the partition target ${formatCount(c.azure.partitionTargetEntitiesPerSecond)} → ${entityRate(c.partitionTargetEntitiesPerSecond)}`;
  const shown = rates
    .slice(0, 4)
    .map((r) => `${r.source} ${formatCount(r.perSecond)}/s → ${formatCount(r.perSecond * c.scale)}/s`)
    .join(", ");
  return (
    `${how}: ${targets}.` +
    (shown
      ? ` The design's rates were scaled by the same factor (${shown}), so each partition carries the share of its target it would carry on Azure.`
      : "") +
    (c.throttled ? " The fidelity layer throttled at the scaled targets during the run." : "")
  );
}

function formatScale(k: number): string {
  return k >= 0.01 ? String(Math.round(k * 1000) / 1000) : k.toPrecision(2);
}
