/**
 * The lines of a key's hover that need the model's reasoning: whether key
 * order follows the values' order (and what it depends on when an alphabet
 * is unknown), how many partitions there are — for time buckets, derived
 * from the retained span — and where load concentrates when the key moves
 * with time. Also whether a table's keys pad an integer property.
 */
import {
  Expr,
  formatCount,
  formatDuration,
  formatPercent,
  KeyInfo,
  KeyPartInfo,
  LoadEstimate,
  separatorBreaksOrder,
  ServiceProfile,
  Table,
  TableEstimates,
  TimeBucket,
} from "@core";

/** A part whose alphabet is unknown, of varying length, followed by a separator: its order depends on its characters. */
function orderDependsOnAlphabet(parts: KeyPartInfo[], i: number): boolean {
  const part = parts[i];
  const next = parts[i + 1]?.literal;
  return (
    part.props.length > 0 &&
    part.order !== "none" &&
    part.prefixProne &&
    !part.fixedWidth &&
    !part.charset &&
    next !== undefined &&
    next !== ""
  );
}

/** "order-preserving", "not order-preserving: …", or what the order depends on — never order-preserving on an unknown alphabet. */
export function orderLine(key: KeyInfo, text: string): string[] {
  const src = (p: KeyPartInfo) => `\`${text.slice(p.part.start, p.part.end)}\``;
  const unordered = key.parts.filter((p, i) => p.props.length && (p.order === "none" || separatorBreaksOrder(key.parts, i)));
  const depends = key.parts.flatMap((p, i) => (orderDependsOnAlphabet(key.parts, i) ? [{ part: p, sep: key.parts[i + 1].literal! }] : []));
  const lines: string[] = [];
  if (unordered.length) {
    lines.push(
      `- not order-preserving: ${unordered.map((p) => `${src(p)} (${p.order === "none" ? (p.orderReason ?? "does not keep order") : "the separator after it sorts above its characters"})`).join("; ")}`,
    );
  }
  for (const { part, sep } of depends) {
    lines.push(
      `- order depends on the characters of ${src(part)}: no \`charset\` is declared, and composite order holds only if none of its characters sorts below ${JSON.stringify(sep[0])} (the separator after it); declare a \`charset\` to know`,
    );
  }
  if (!lines.length) lines.push("- order-preserving: key order follows the values' order, part by part");
  return lines;
}

/** How a table's keys use an integer property: everywhere inside `pad` (or `reverse`, `hash`, `bucket`), somewhere as it is, or nowhere. */
export function padUse(table: Table, name: string): "padded" | "bare" | "unused" {
  let padded = false;
  let bare = false;
  const walk = (expr: Expr, shielded: boolean) => {
    for (const part of expr.parts) {
      if (part.kind === "ref" && part.name.text === name) {
        if (shielded) padded = true;
        else bare = true;
      } else if (part.kind === "call") {
        const shields =
          shielded || part.fnName === "pad" || part.fnName === "reverse" || part.fnName === "hash" || part.fnName === "bucket";
        for (const arg of part.args) if ("kind" in arg && arg.kind === "expr") walk(arg, shields);
      }
    }
  };
  for (const key of [table.partitionKey?.expr, table.rowKey?.expr, ...table.indexes.map((ix) => ix.expr)]) if (key) walk(key, false);
  return bare ? "bare" : padded ? "padded" : "unused";
}

/** The partition key's partitions — with the time-bucket derivation — and, when it moves with time, the current partition's load. */
export function partitionLines(est: TableEstimates, load: LoadEstimate, profile: ServiceProfile): string[] {
  const pk = est.pk;
  if (!pk) return [];
  const lines: string[] = [];
  const bucketPart = pk.parts.find((p) => p.timeBucket);
  const tb = bucketPart?.timeBucket;
  if (pk.unknownBuckets) {
    const u = pk.unknownBuckets;
    lines.push(
      `- partitions: unknown — the number of ${u.adjective} buckets of \`${u.prop}\` is the time the table keeps divided by one bucket's width; ` +
        "declare `retention` (such as `retention 90d`), or `rows` and an insert rate",
    );
  } else if (est.partitions !== undefined) {
    let how = "";
    if (tb?.count !== undefined) {
      const others = est.partitions / tb.count;
      how =
        others > 1.0001
          ? ` = ${formatCount(tb.count)} ${tb.adjective} buckets of \`${tb.prop}\` × ≈ ${formatCount(others)} values of the other parts; ${bucketDerivation(tb, est)}`
          : ` ${tb.adjective} buckets of \`${tb.prop}\`: ${bucketDerivation(tb, est)}`;
    }
    lines.push(`- partitions: ≈ ${formatCount(est.partitions)}${how}`);
  }
  if (pk.temporal) {
    const share = pk.temporal.writeShare;
    const where =
      share >= 0.9999
        ? "the current partition"
        : `the current partition of each value of the other parts (the hottest takes ${formatPercent(share)})`;
    const target =
      profile.partitionTarget?.unit === "entities/s" ? `; the target is ${formatCount(profile.partitionTarget.value)} entities/s` : "";
    lines.push(
      `- load is temporal: every write of the current moment lands in ${where}` +
        (load.hottest > 0 ? ` — ≈ ${formatCount(load.hottest)} entities/s at peak${target}` : ""),
    );
  }
  return lines;
}

/** How the number of time buckets was found: the span kept ÷ the bucket's width (and where the span comes from), or the format's cycle. */
function bucketDerivation(tb: TimeBucket, est: TableEstimates): string {
  const span = est.span;
  if (tb.countedBy !== "span" || !span)
    return `"${tb.format}" cycles through ${formatCount(tb.count ?? 0)} values, however long the table keeps entities`;
  const kept =
    span.source === "retention"
      ? `the retention of ${formatDuration(span.seconds)}`
      : `${formatDuration(span.seconds)} kept (rows ${formatCount(span.rows)} ÷ ${formatCount(span.insertRate)} inserts/s at peak)`;
  const exact = Math.abs(span.seconds / tb.widthSeconds - tb.count!) < 1e-6;
  return `${formatCount(tb.count!)} = ${kept} ÷ 1 ${tb.unit} a bucket${exact ? "" : ", rounded up"}`;
}
