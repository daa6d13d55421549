/**
 * `ts/design-drift-key`: code writes or reads a table that a `.tdl` of the
 * workspace declares, with a key built differently from the design's —
 * another separator, pad width, segment order or prefix, a part the design
 * does not have, a character the design's service forbids; and a
 * transaction whose entities take the design's partition key from
 * different values (different partitions, per the design). The row key is
 * compared with the design's row key and every `index` row key; the
 * closest one is named. Keys the code does not spell out (a parameter, a
 * key read back from the table, the generated builders) are not judged.
 */
import * as path from "node:path";
import { bestMatch, Drift } from "../drift/compare";
import { builderFix } from "../drift/builder-fix";
import { DesignTable } from "../drift/design-index";
import { codeShape, layout, render, Shape } from "../drift/shape";
import { splitTransaction } from "../drift/transactions";
import { Key, span, TsRule } from "./rule";

export const designDriftKey: TsRule = {
  code: "ts/design-drift-key",
  severity: "warning",
  family: "TypeScript code",
  docs: {
    summary:
      "code writes a table that a `.tdl` in the workspace declares, with keys built differently (separator, pad width, segment order, prefix, a part the design lacks, a character the service forbids)",
    why: "The design's queries, load figures and index rows hold only for keys built as designed: a key built another way lands in other partitions and row ranges, and the design's queries stop finding it.",
    fix: "use the generated builder (`tdl codegen`); when the module is missing, generate it",
  },
  check(ctx) {
    for (const key of ctx.keys) {
      // A key built in a helper elsewhere is judged where the helper is (its fix edits the helper).
      if (key.declared || key.at !== key.expr) continue;
      const design = ctx.designTable?.(key.table);
      if (!design) continue;
      const code = codeShape(key.parts);
      if (!judgeable(code, key)) continue;
      const candidates =
        key.which === "partitionKey"
          ? design.partitionKey
            ? [{ label: "partitionKey", shape: design.partitionKey, props: design.keyProps.partitionKey, builder: "partitionKey" }]
            : []
          : design.rowKeys.map((r, i) => ({
              ...r,
              props: design.keyProps.rowKeys[i],
              builder: i === 0 ? "rowKey" : `rowKey${r.label.replace(/^index /, "")}`,
            }));
      const best = bestMatch(code, candidates, design.profile);
      if (!best || !best.drifts.length) continue;
      const { candidate, drifts } = best;
      const fix = builderFix({ sf: ctx.sf, key: key.expr, code, design, builder: candidate.builder, props: candidate.props });
      ctx.report(span(ctx.sf, key.expr), message(key, design, candidate.label, candidate.shape, drifts), {
        fixes: fix ? [fix] : undefined,
      });
    }
    for (const tx of ctx.usage.transactions) {
      const design = ctx.designTable?.(tx.writes[0]?.table);
      const split = design && splitTransaction(tx, design, ctx.decomposer);
      if (!split || !design) continue;
      ctx.report(
        span(ctx.sf, tx.call),
        `this transaction's entities take ${split.prop} from different values (${split.values
          .slice(0, 3)
          .map((v) => `'${v}'`)
          .join(", ")}), ` +
          `and table "${design.name}"'s design builds the partition key from ${split.prop}: they are in different partitions whenever the values differ, and the service rejects the batch.`,
      );
    }
  },
};

/** A key the code spells out: some literal text, or more than one part, or a rendering (pad, hash, clock) — not one opaque value. */
function judgeable(code: Shape, key: Key): boolean {
  // The generated builders are correct by construction.
  if (key.parts.some((p) => /\.keys\.[cm]?[jt]s$/.test(p.node.getSourceFile().fileName))) return false;
  const { slots, lits } = layout(code);
  const literal = lits.some((l) => l.text) || slots.some((s) => s.fixedText !== undefined);
  return literal || slots.length > 1 || (slots.length === 1 && (!!slots[0].fn || !!slots[0].numeric));
}

function message(key: Key, design: DesignTable, label: string, shape: Shape, drifts: Drift[]): string {
  const where = design.source ? ` (${path.basename(design.source)})` : "";
  return (
    `this ${key.which} is built differently from table "${design.name}"'s design${where}, ${label} = ${render(shape)}: ` +
    `${drifts.map((d) => d.message).join("; ")}. Use the generated key builder, so the code builds the key the design was checked with.`
  );
}
