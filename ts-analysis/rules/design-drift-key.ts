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
import { bestMatch } from "../drift/compare";
import { builderFix } from "../drift/builder-fix";
import { DesignTable } from "../drift/design-index";
import { codeShape, layout, render, Shape } from "../drift/shape";
import { splitTransaction } from "../drift/transactions";
import ts from "typescript";
import { generatedModuleOf, isStale, regenerateFix, staleReason } from "../drift/generated";
import { locationOf } from "../written-keys";
import { defineTsRule, Key, span, TsRuleContext } from "./rule";

/** The sentences of `ts/design-drift-key`. */
const messages = {
  drift: (p: { which: string; table: string; design?: string; label: string; shape: string; drifts: string[] }) =>
    `this ${p.which} is built differently from table "${p.table}"'s design${p.design ? ` (${p.design})` : ""}, ${p.label} = ${p.shape}: ` +
    `${p.drifts.join("; ")}. Use the generated key builder, so the code builds the key the design was checked with.`,
  splitTransaction: (p: { property: string; values: string[]; table: string }) =>
    `this transaction's entities take ${p.property} from different values (${p.values
      .slice(0, 3)
      .map((v) => `'${v}'`)
      .join(", ")}), ` +
    `and table "${p.table}"'s design builds the partition key from ${p.property}: they are in different partitions whenever the values differ, and the service rejects the batch.`,
  stale: (p: { which: string; module: string; reason: string; more: number; table: string; design: string }) =>
    `this ${p.which} comes from ${p.module}, which ${p.reason}${p.more ? ` (and ${p.more} more key${p.more > 1 ? "s" : ""} in this file)` : ""}: ` +
    `its builders may build keys that table "${p.table}"'s design (${p.design}) no longer says. Regenerate the module.`,
  brokenDesign: (p: { table: string; design: string }) =>
    `table "${p.table}"'s design (${p.design}) does not parse: drift between it and this code is not judged until it parses.`,
};

type Context = TsRuleContext<typeof messages>;

export const designDriftKey = defineTsRule({
  code: "ts/design-drift-key",
  severity: "warning",
  family: "TypeScript code",
  traits: { drift: true },
  docs: {
    summary:
      "code writes a table that a `.tdl` in the workspace declares, with keys built differently (separator, pad width, segment order, prefix, a part the design lacks, a character the service forbids)",
    why: "The design's queries, load figures and index rows hold only for keys built as designed: a key built another way lands in other partitions and row ranges, and the design's queries stop finding it.",
    fix: "use the generated builder (`tdl codegen`); when the module is missing, or was generated from another version of the table (its design fingerprint differs), generate it again",
  },
  messages,

  check(ctx) {
    const broken = new BrokenDesigns(ctx);
    const stale = new Map<string, Key[]>();
    for (const key of ctx.keys) {
      // A key built in a helper elsewhere is judged where the helper is (its fix edits the helper).
      if (key.declared || key.at !== key.expr) continue;
      const design = ctx.designTable?.(key.table);
      if (!design || broken.skip(design, key.expr)) continue;
      // Built by the generated builder: right by construction, unless the module was made from another version of the table.
      const generated = generatedModuleOf(key.parts);
      if (generated) {
        if (isStale(generated, design)) stale.set(generated.file, [...(stale.get(generated.file) ?? []), key]);
        continue;
      }
      const code = codeShape(key.parts);
      if (!judgeable(code)) continue;
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
      ctx.report(
        span(ctx.sf, key.expr),
        "drift",
        {
          which: key.which,
          table: design.name,
          ...(design.source ? { design: path.basename(design.source) } : {}),
          label: candidate.label,
          shape: render(candidate.shape),
          drifts: drifts.map((d) => d.message),
        },
        { fixes: fix ? [fix] : undefined },
      );
    }
    for (const [file, keys] of stale) reportStale(ctx, file, keys);
    for (const q of ctx.queries) {
      const design = ctx.designTable?.(q.table);
      if (design) broken.skip(design, q.call);
    }
    for (const tx of ctx.usage.transactions) {
      const design = ctx.designTable?.(tx.writes[0]?.table);
      if (design?.broken) continue;
      const split = design && splitTransaction(tx, design, ctx.decomposer);
      if (!split || !design) continue;
      ctx.report(span(ctx.sf, tx.call), "splitTransaction", { property: split.prop, values: split.values.slice(0, 3), table: design.name });
    }
  },
});

/**
 * One finding per stale module in a file, at its first key: the module was generated from another version of the
 * table, so its builders may build keys the design no longer says. The fix regenerates it; "use the builder" is not offered.
 */
function reportStale(ctx: Context, file: string, keys: Key[]): void {
  const design = ctx.designTable!(keys[0].table)!;
  const module = { file, fingerprint: generatedModuleOf(keys[0].parts)?.fingerprint };
  ctx.report(
    span(ctx.sf, keys[0].expr),
    "stale",
    {
      which: keys[0].which,
      module: path.basename(file),
      reason: staleReason(module, design),
      more: keys.length - 1,
      table: design.name,
      design: path.basename(design.source),
    },
    {
      // Generated by an older tdl (no fingerprint): not known to differ, said quietly.
      severity: module.fingerprint ? undefined : "info",
      fixes: [regenerateFix(design, file)],
      related: keys.slice(1).map((k) => ({ ...locationOf(k.expr), message: `another key built by ${path.basename(file)}` })),
    },
  );
}

/**
 * Tables whose design does not parse: both drift rules stay quiet for them (their keys and queries are not yet
 * what the author means), and one info per table and file says drift is not judged until the design parses.
 */
class BrokenDesigns {
  private readonly told = new Set<string>();

  constructor(private readonly ctx: Context) {}

  /** True when `design` is broken (said once, at `at`). */
  skip(design: DesignTable, at: ts.Node): boolean {
    if (!design.broken) return false;
    if (this.told.has(design.name)) return true;
    this.told.add(design.name);
    this.ctx.report(
      span(this.ctx.sf, at),
      "brokenDesign",
      { table: design.name, design: path.basename(design.source) },
      { severity: "info" },
    );
    return true;
  }
}

/** A key the code spells out: some literal text, or more than one part, or a rendering (pad, hash, clock) — not one opaque value. */
function judgeable(code: Shape): boolean {
  const { slots, lits } = layout(code);
  const literal = lits.some((l) => l.text) || slots.some((s) => s.fixedText !== undefined);
  return literal || slots.length > 1 || (slots.length === 1 && (!!slots[0].fn || !!slots[0].numeric));
}
