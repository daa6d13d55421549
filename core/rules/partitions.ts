/**
 * Partition rules (`docs/rules.md`, "Partitions and load"): append-only keys,
 * a single partition, hot partitions and partitions too large.
 */
import { tableFacts, TableFacts } from "../model/facts";
import { KeyInfo } from "../model/key-parts";
import { renderKey, sampleValues } from "../model/keys";
import { formatBytes, formatPercent } from "../text/words";
import { formatCount } from "../text/words";
import { appendComposites, appendSplits, hashPrefix, preferFirst, prefixBuckets } from "../fixes/candidates";
import { Rule, TableContext } from "./rule";

/**
 * What the partition's target is and what the moment's writes put on the
 * hottest partition, in the target's unit: bucket counts are sized from
 * the writes a fix spreads, not from the reads that come with them.
 */
function writeLoad(ctx: TableContext, facts: TableFacts): { writes: number; target: number } | undefined {
  const target = ctx.profile.partitionTarget;
  if (!target) return undefined;
  const kib = Math.max(1, (facts.est.entitySize ?? 1024) / 1024);
  const written = facts.load.patterns.filter((p) => p.written).reduce((s, p) => s + p.hottest, 0);
  return target.unit === "RU/s"
    ? { writes: written * kib * 5, target: target.value }
    : { writes: written, target: ctx.options.partitionTargetEntitiesPerSecond ?? target.value };
}

/** The partition key value of the hottest partition, rendered from sample values. */
function hotKeyExample(ctx: TableContext, pk: KeyInfo): string {
  return renderKey(pk.expr, { props: ctx.props, values: sampleValues(ctx.props) });
}

export const appendOnly: Rule = {
  code: "partition/append-only",
  severity: "warning",
  family: "Partitions and load",
  docs: {
    summary: "new entities' partition keys pile up at the end (or start) of the key order: an increasing leading part, or a time bucket",
    why: "The service splits tables into range partitions; keys that always land at the end send every insert to one partition on one server.",
    fix: '`hash(P, 4) + ","` in front; for a time bucket, `bucket(Q, n) + ","` with Q what the queries pin, else an identity (else the time itself), n from the written load (16 without a rate): reads over a time range then fan out to n partitions',
  },
  checkTable(ctx) {
    const { est } = tableFacts(ctx.table, ctx.props);
    const pk = est.pk;
    const lead = pk?.parts.find((p) => p.props.length);
    if (!pk || !lead?.monotonic) return;
    const end = lead.monotonic === "decreasing" ? "start" : "end";
    const what =
      lead.monotonic === "bucket"
        ? `a time bucket of '${lead.prop?.name ?? lead.props[0]}': at any moment every new entity gets the same partition key`
        : `'${lead.prop?.name ?? lead.props[0]}' is ${lead.monotonic}: new entities get partition keys next to each other at the ${end} of the key order`;
    const facts = tableFacts(ctx.table, ctx.props);
    const sized = writeLoad(ctx, facts) ?? { writes: 0, target: 0 };
    const fixes =
      lead.monotonic === "bucket"
        ? prefixBuckets(ctx, pk, est.rk, sized.writes, sized.target)
        : [hashPrefix(ctx, pk, lead), ...prefixBuckets(ctx, pk, est.rk, sized.writes, sized.target)].filter((f) => !!f);
    ctx.report(
      pk.expr,
      `${lead.monotonic === "decreasing" ? "prepend-only" : "append-only"} partition key: ${what}, so all inserts hit one range partition on one server. ` +
        (lead.monotonic === "bucket" ? "Spread the bucket with another property." : "Disperse the keys with a hash prefix."),
      { fixes: preferFirst(fixes) },
    );
  },
};

export const singleValue: Rule = {
  code: "partition/single-value",
  severity: "warning",
  family: "Partitions and load",
  docs: {
    summary: "the partition key has one possible value",
    why: "The whole table is one partition, served by one server: its throughput target is the table's.",
    fix: "append a `bucket` of the property the queries pin (else an identity), or the property itself",
    severityNote: "warning (info without estimates)",
  },
  checkTable(ctx) {
    const { est } = tableFacts(ctx.table, ctx.props);
    const pk = est.pk;
    // A time bucket has one value at a time, not one for ever: a short span's single bucket is no constant key.
    if (!pk || !pk.parts.every((p) => p.distinct === 1 && !p.timeBucket)) return;
    const hasEstimates = est.rows !== undefined || ctx.table.accesses.some((a) => a.rate);
    const facts = tableFacts(ctx.table, ctx.props);
    const sized = writeLoad(ctx, facts) ?? { writes: facts.load.total, target: 0 };
    const fixes = appendSplits(ctx, pk, est.rk, sized.writes, sized.target);
    ctx.report(
      pk.expr,
      `the partition key has one possible value: the whole table is one partition on one server` +
        (est.rows !== undefined ? ` (≈ ${formatCount(est.rows)} entities)` : "") +
        `. Add a property that splits it.`,
      { fixes: preferFirst(fixes), severity: hasEstimates ? "warning" : "info" },
    );
  },
};

function hotMessage(ctx: TableContext, facts: TableFacts, figure: string, target: string): string {
  const { est, load } = facts;
  const top = [...load.patterns]
    .filter((p) => p.hottest > 0)
    .sort((a, b) => b.hottest - a.hottest)
    .slice(0, 3)
    .map((p) => `${p.access.name.text} ${formatCount(p.hottest)}/s`)
    .join(", ");
  const example = hotKeyExample(ctx, est.pk!);
  if (load.temporal) {
    return (
      `${figure} on the current partition (such as '${example}'): ${temporalCause(est.pk!)}, however many partitions pile up over time (${top}); ` +
      `the target is ${target}. Spread the moment's writes with another property in front of it.`
    );
  }
  const share = est.hotShare >= 0.9999 ? "every entity" : `${formatCount(est.hotShare * 100)}% of the traffic`;
  return (
    `${figure} on partition '${example}' (the hottest partition takes ${share}: ${top}); the target is ${target}. ` +
    `Split the hot value with another property in the partition key.`
  );
}

/** Why a key that moves with time concentrates the moment's writes, in words. */
function temporalCause(pk: KeyInfo): string {
  const { parts, writeShare } = pk.temporal!;
  const lead = parts[0];
  const name = lead.timeBucket?.prop ?? lead.prop?.name ?? lead.props[0];
  const spread =
    writeShare >= 0.9999
      ? "one partition"
      : `one partition per value of the other key parts (the hottest takes ${formatPercent(writeShare)} of them)`;
  if (lead.monotonic === "bucket") {
    const adjective = lead.timeBucket?.adjective;
    const bucket = adjective ? `${/^[aeiou]|^hour/.test(adjective) ? "an" : "a"} ${adjective} time bucket` : "a time bucket";
    return `the partition key is ${bucket} of '${name}', so every write of the current moment lands in ${spread}`;
  }
  const end = lead.monotonic === "decreasing" ? "start" : "end";
  return `'${name}' in the partition key is ${lead.monotonic}, so every write of the current moment lands in ${spread} at the ${end} of the key order`;
}

export const hot: Rule = {
  code: "partition/hot",
  severity: "warning",
  family: "Partitions and load",
  docs: {
    summary:
      "the hottest partition's peak load (writes with index rows, plus entities scanned) exceeds the target: 2,000 entities/s on Azure, 10,000 RU/s on Cosmos DB; when the key moves with time (increasing, or a time bucket) the current partition takes every write of the moment",
    why: "Above the per-partition target the partition's server runs hot and the service throttles it (503 Server Busy). Load is temporal: however many partitions a time-bucketed key accumulates, only the current one is written.",
    fix: "append a `bucket` of the property the queries pin, or that property (a moving key: a `bucket` in front); buckets sized from the written load, at most 64",
  },
  checkTable(ctx) {
    const target = ctx.profile.partitionTarget;
    const facts = tableFacts(ctx.table, ctx.props);
    const pk = facts.est.pk;
    if (!target || !pk || facts.load.hottest <= 0) return;
    let message: string;
    if (target.unit === "RU/s") {
      if (facts.load.hottestRU <= target.value) return;
      message = hotMessage(ctx, facts, `≈ ${formatCount(facts.load.hottestRU)} RU/s`, `${formatCount(target.value)} RU/s per partition`);
    } else {
      const limit = ctx.options.partitionTargetEntitiesPerSecond ?? target.value;
      if (facts.load.hottest <= limit) return;
      message = hotMessage(ctx, facts, `≈ ${formatCount(facts.load.hottest)} entities/s`, `${formatCount(limit)} entities/s per partition`);
    }
    const sized = writeLoad(ctx, facts)!;
    // Behind a time bucket or an increasing part, another part splits the current partition but keeps the
    // moment's keys side by side; in front of it, it spreads them over the key order too (partition/append-only).
    const fixes = facts.load.temporal
      ? [...prefixBuckets(ctx, pk, facts.est.rk, sized.writes, sized.target), ...appendComposites(ctx, pk, facts.est.rk)]
      : appendSplits(ctx, pk, facts.est.rk, sized.writes, sized.target);
    ctx.report(pk.expr, message, { fixes: preferFirst(fixes) });
  },
};

export const tooLarge: Rule = {
  code: "partition/too-large",
  severity: "warning",
  family: "Partitions and load",
  docs: {
    summary: "the largest partition's data exceeds the guidance (Tablestore 10 GB) or the limit (Cosmos DB 20 GB)",
    why: "A partition cannot be split by the service; past the limit writes fail, past the guidance it balances badly.",
    fix: "concatenate a row-key property into the partition key",
    severityNote: "warning / error",
  },
  checkTable(ctx) {
    const limit = ctx.profile.partitionSize;
    const { est } = tableFacts(ctx.table, ctx.props);
    if (!limit || !est.pk || est.rows === undefined || est.entitySize === undefined || est.hotShare <= 0) return;
    const bytes = est.rows * est.hotShare * est.entitySize * est.rowsPerEntity;
    if (bytes <= limit.bytes) return;
    const rkProps = new Set<string>([...(est.rk?.props ?? [])]);
    const splits = Math.ceil(bytes / limit.bytes);
    const fixes = appendSplits(ctx, est.pk, est.rk, splits, 1, rkProps);
    ctx.report(
      est.pk.expr,
      `the largest partition holds ≈ ${formatBytes(bytes)} (${formatCount(est.rows * est.hotShare * est.rowsPerEntity)} rows of ${formatBytes(est.entitySize)}); ` +
        `${ctx.profile.label} ${limit.hard ? "allows" : "advises at most"} ${formatBytes(limit.bytes)} per partition. Concatenate further key properties into the partition key.`,
      { fixes: preferFirst(fixes), severity: limit.hard ? "error" : "warning" },
    );
  },
};
