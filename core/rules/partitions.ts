/**
 * Partition rules (`docs/rules.md`, "Partitions and load"): append-only keys,
 * a single partition, hot partitions and partitions too large.
 */
import { tableFacts, TableFacts } from "../model/facts";
import { KeyInfo } from "../model/key-parts";
import { renderKey, sampleValues } from "../model/keys";
import { formatBytes, formatPercent } from "../tdl/numbers";
import { formatCount } from "../text/words";
import { appendComposites, appendSplits, hashPrefix, preferFirst, prefixBuckets } from "./fixes/candidates";
import { defineRule, TableContext } from "./rule";

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

export const appendOnly = defineRule({
  code: "partition/append-only",
  severity: "warning",
  family: "Partitions and load",
  traits: { partition: true },
  docs: {
    summary: "new entities' partition keys pile up at the end (or start) of the key order: an increasing leading part, or a time bucket",
    why: "The service splits tables into range partitions; keys that always land at the end send every insert to one partition on one server.",
    fix: '`hash(P, 4) + ","` in front; for a time bucket, `bucket(Q, n) + ","` with Q what the queries pin, else an identity (else the time itself), n from the written load (16 without a rate): reads over a time range then fan out to n partitions',
  },
  messages: {
    appendOnly: (p: { name: string; order: "increasing" | "decreasing" }) =>
      `${p.order === "decreasing" ? "prepend-only" : "append-only"} partition key: '${p.name}' is ${p.order}: new entities get partition keys next to each other at the ${p.order === "decreasing" ? "start" : "end"} of the key order, so all inserts hit one range partition on one server. ` +
      "Disperse the keys with a hash prefix.",
    timeBucket: (p: { name: string }) =>
      `append-only partition key: a time bucket of '${p.name}': at any moment every new entity gets the same partition key, so all inserts hit one range partition on one server. ` +
      "Spread the bucket with another property.",
  },

  checkTable(ctx) {
    const { est } = tableFacts(ctx.table, ctx.props);
    const pk = est.pk;
    const lead = pk?.parts.find((p) => p.props.length);
    if (!pk || !lead?.monotonic) return;
    const facts = tableFacts(ctx.table, ctx.props);
    const sized = writeLoad(ctx, facts) ?? { writes: 0, target: 0 };
    const fixes =
      lead.monotonic === "bucket"
        ? prefixBuckets(ctx, pk, est.rk, sized.writes, sized.target)
        : [hashPrefix(ctx, pk, lead), ...prefixBuckets(ctx, pk, est.rk, sized.writes, sized.target)].filter((f) => !!f);
    const name = lead.prop?.name ?? lead.props[0];
    const more = { fixes: preferFirst(fixes) };
    if (lead.monotonic === "bucket") ctx.report(pk.expr, "timeBucket", { name }, more);
    else ctx.report(pk.expr, "appendOnly", { name, order: lead.monotonic }, more);
  },
});

export const singleValue = defineRule({
  code: "partition/single-value",
  severity: "warning",
  family: "Partitions and load",
  traits: { partition: true },
  docs: {
    summary: "the partition key has one possible value",
    why: "The whole table is one partition, served by one server: its throughput target is the table's.",
    fix: "append a `bucket` of the property the queries pin (else an identity), or the property itself",
    severityNote: "warning (info without estimates)",
  },
  messages: {
    singleValue: (p: { rows?: number }) =>
      `the partition key has one possible value: the whole table is one partition on one server` +
      (p.rows !== undefined ? ` (≈ ${formatCount(p.rows)} entities)` : "") +
      `. Add a property that splits it.`,
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
    ctx.report(pk.expr, "singleValue", est.rows !== undefined ? { rows: est.rows } : {}, {
      fixes: preferFirst(fixes),
      severity: hasEstimates ? "warning" : "info",
    });
  },
});

/** The figures of a hot partition's message: its load and the target in one unit, the busiest patterns, the key. */
interface HotData {
  load: number;
  target: number;
  unit: "entities/s" | "RU/s";
  /** The hottest partition's key, rendered from sample values. */
  example: string;
  /** Up to three patterns with their peak rate on it, busiest first. */
  patterns: Array<{ name: string; perSecond: number }>;
}

function hotData(ctx: TableContext, facts: TableFacts, load: number, target: number, unit: HotData["unit"]): HotData {
  const patterns = [...facts.load.patterns]
    .filter((p) => p.hottest > 0)
    .sort((a, b) => b.hottest - a.hottest)
    .slice(0, 3)
    .map((p) => ({ name: p.access.name.text, perSecond: p.hottest }));
  return { load, target, unit, example: hotKeyExample(ctx, facts.est.pk!), patterns };
}

const hotFigures = (p: HotData) => ({
  figure: `≈ ${formatCount(p.load)} ${p.unit}`,
  target: `${formatCount(p.target)} ${p.unit} per partition`,
  top: p.patterns.map((x) => `${x.name} ${formatCount(x.perSecond)}/s`).join(", "),
});

/** What moves with time in the partition key: its leading part, how, and the share of the moment's writes the hottest of its partitions takes. */
interface Moving {
  name: string;
  monotonic: "bucket" | "increasing" | "decreasing";
  /** The bucket's adjective ("hourly"), when it is a time bucket of a known width. */
  adjective?: string;
  writeShare: number;
}

function movingPart(pk: KeyInfo): Moving {
  const { parts, writeShare } = pk.temporal!;
  const lead = parts[0];
  const name = lead.timeBucket?.prop ?? lead.prop?.name ?? lead.props[0];
  const monotonic = lead.monotonic === "decreasing" ? "decreasing" : lead.monotonic === "bucket" ? "bucket" : "increasing";
  return { name, monotonic, ...(lead.timeBucket?.adjective ? { adjective: lead.timeBucket.adjective } : {}), writeShare };
}

/** Why a key that moves with time concentrates the moment's writes, in words. */
function temporalCause(m: Moving): string {
  const spread =
    m.writeShare >= 0.9999
      ? "one partition"
      : `one partition per value of the other key parts (the hottest takes ${formatPercent(m.writeShare)} of them)`;
  if (m.monotonic === "bucket") {
    const bucket = m.adjective ? `${/^[aeiou]|^hour/.test(m.adjective) ? "an" : "a"} ${m.adjective} time bucket` : "a time bucket";
    return `the partition key is ${bucket} of '${m.name}', so every write of the current moment lands in ${spread}`;
  }
  const end = m.monotonic === "decreasing" ? "start" : "end";
  return `'${m.name}' in the partition key is ${m.monotonic}, so every write of the current moment lands in ${spread} at the ${end} of the key order`;
}

export const hot = defineRule({
  code: "partition/hot",
  severity: "warning",
  family: "Partitions and load",
  traits: { partition: true },
  docs: {
    summary:
      "the hottest partition's peak load (writes with index rows, plus entities scanned) exceeds the target: 2,000 entities/s on Azure, 10,000 RU/s on Cosmos DB; when the key moves with time (increasing, or a time bucket) the current partition takes every write of the moment",
    why: "Above the per-partition target the partition's server runs hot and the service throttles it (503 Server Busy). Load is temporal: however many partitions a time-bucketed key accumulates, only the current one is written.",
    fix: "append a `bucket` of the property the queries pin, or that property (a moving key: a `bucket` in front); buckets sized from the written load, at most 64",
  },
  messages: {
    hot: (p: HotData & { share: number }) => {
      const f = hotFigures(p);
      const share = p.share >= 0.9999 ? "every entity" : `${formatCount(p.share * 100)}% of the traffic`;
      return (
        `${f.figure} on partition '${p.example}' (the hottest partition takes ${share}: ${f.top}); the target is ${f.target}. ` +
        `Split the hot value with another property in the partition key.`
      );
    },
    temporal: (p: HotData & { moving: Moving }) => {
      const f = hotFigures(p);
      return (
        `${f.figure} on the current partition (such as '${p.example}'): ${temporalCause(p.moving)}, however many partitions pile up over time (${f.top}); ` +
        `the target is ${f.target}. Spread the moment's writes with another property in front of it.`
      );
    },
  },

  checkTable(ctx) {
    const target = ctx.profile.partitionTarget;
    const facts = tableFacts(ctx.table, ctx.props);
    const pk = facts.est.pk;
    if (!target || !pk || facts.load.hottest <= 0) return;
    let data: HotData;
    if (target.unit === "RU/s") {
      if (facts.load.hottestRU <= target.value) return;
      data = hotData(ctx, facts, facts.load.hottestRU, target.value, "RU/s");
    } else {
      const limit = ctx.options.partitionTargetEntitiesPerSecond ?? target.value;
      if (facts.load.hottest <= limit) return;
      data = hotData(ctx, facts, facts.load.hottest, limit, "entities/s");
    }
    const sized = writeLoad(ctx, facts)!;
    // Behind a time bucket or an increasing part, another part splits the current partition but keeps the
    // moment's keys side by side; in front of it, it spreads them over the key order too (partition/append-only).
    const fixes = facts.load.temporal
      ? [...prefixBuckets(ctx, pk, facts.est.rk, sized.writes, sized.target), ...appendComposites(ctx, pk, facts.est.rk)]
      : appendSplits(ctx, pk, facts.est.rk, sized.writes, sized.target);
    const more = { fixes: preferFirst(fixes) };
    if (facts.load.temporal) ctx.report(pk.expr, "temporal", { ...data, moving: movingPart(pk) }, more);
    else ctx.report(pk.expr, "hot", { ...data, share: facts.est.hotShare }, more);
  },
});

export const tooLarge = defineRule({
  code: "partition/too-large",
  severity: "warning",
  family: "Partitions and load",
  traits: { partition: true },
  docs: {
    summary: "the largest partition's data exceeds the guidance (Tablestore 10 GB) or the limit (Cosmos DB 20 GB)",
    why: "A partition cannot be split by the service; past the limit writes fail, past the guidance it balances badly.",
    fix: "concatenate a row-key property into the partition key",
    severityNote: "warning / error",
  },
  messages: {
    tooLarge: (p: { bytes: number; rows: number; entitySize: number; service: string; hard: boolean; limit: number }) =>
      `the largest partition holds ≈ ${formatBytes(p.bytes)} (${formatCount(p.rows)} rows of ${formatBytes(p.entitySize)}); ` +
      `${p.service} ${p.hard ? "allows" : "advises at most"} ${formatBytes(p.limit)} per partition. Concatenate further key properties into the partition key.`,
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
      "tooLarge",
      {
        bytes,
        rows: est.rows * est.hotShare * est.rowsPerEntity,
        entitySize: est.entitySize,
        service: ctx.profile.label,
        hard: !!limit.hard,
        limit: limit.bytes,
      },
      { fixes: preferFirst(fixes), severity: limit.hard ? "error" : "warning" },
    );
  },
});
