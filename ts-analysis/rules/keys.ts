/**
 * Key rules over TypeScript code (docs/rules.md, "TypeScript code"): numbers
 * without padding, keys that start with the clock, constant partition keys,
 * forbidden characters and separators that break composite order.
 */
import ts from "typescript";
import { Fix, padWidth, separatorBelow, showChar, TextEdit } from "@core";
import { createHashImport } from "../edits";
import { keyMaterial } from "../key-material";
import { skipOuter, TsKeyPart } from "../key-parts";
import * as path from "node:path";
import { defineTsRule, Key, span, text, TsRuleContext } from "./rule";

export const unpaddedNumber = defineTsRule({
  code: "ts/unpadded-number",
  severity: "warning",
  family: "TypeScript code",
  traits: { load: true },
  docs: {
    summary: "a number enters a key without `padStart`",
    why: 'Keys sort as text: "111" sorts before "2", so numeric order and ranges break.',
    fix: '`String(x).padStart(W, "0")`, W from a design property of the same name, else 10',
  },
  messages: {
    elsewhere: (p: { which: string; key: string; part: string; file: string }) =>
      `the ${p.which} '${p.key}' holds a number without padding ('${p.part}' in ${p.file}): keys sort as text, so "111" sorts before "2". Pad it with padStart.`,
    unpadded: (p: { part: string; which: string; width: number; property?: string; max?: number | bigint }) =>
      `'${p.part}' is a number entering the ${p.which} without padding: keys sort as text, so "111" sorts before "2". ` +
      `Pad it to ${p.width} digits${p.property ? ` (design property ${p.property} reaches ${p.max})` : ""}.`,
  },

  check(ctx) {
    for (const key of ctx.keys) {
      for (const p of key.parts) {
        if (p.kind !== "value" || p.type !== "number") continue;
        // A part built in another file (a helper's return): reported on this file's key, without an edit elsewhere.
        if (!inThisFile(ctx, p.node)) {
          ctx.report(span(ctx.sf, key.at), "elsewhere", {
            which: key.which,
            key: key.expr.getText(),
            part: p.node.getText(),
            file: path.basename(p.node.getSourceFile().fileName),
          });
          continue;
        }
        const design = ctx.design(key.table);
        const prop = p.name
          ? [...(design?.values() ?? [])].find(
              (i) => i.name.toLowerCase() === p.name!.toLowerCase() && (i.type === "int" || i.type === "int64"),
            )
          : undefined;
        const width = prop ? padWidth(prop) : 10;
        const src = text(ctx.sf, p.node);
        const padded =
          /^String\(/.test(src) || /\.toString\(\)$/.test(src)
            ? `${src}.padStart(${width}, "0")`
            : `String(${src}).padStart(${width}, "0")`;
        ctx.report(
          span(ctx.sf, p.node),
          "unpadded",
          { part: src, which: key.which, width, ...(prop ? { property: prop.name, max: prop.max } : {}) },
          {
            fixes: [{ title: `Pad to ${width} digits: ${padded}`, edits: [{ ...span(ctx.sf, p.node), newText: padded }], preferred: true }],
          },
        );
      }
    }
  },
});

/** True when a key part's node is in the file being analysed (a helper's return may live in another). */
const inThisFile = (ctx: TsRuleContext, n: ts.Node) => n.getSourceFile() === ctx.sf;

/** The partition keys of entities written outside transactions and inside them. */
const writtenPartitionKeys = (ctx: TsRuleContext) => ctx.keys.filter((k) => k.which === "partitionKey" && k.write);

/** What a partition key that moves with time starts with, in words. */
const APPEND_LEADS = {
  clock: "the clock",
  hashedClock: "a hash of the clock, one value per moment,",
  timeId: "a time-ordered id",
  counter: "a counter incremented in place",
};

export const appendOnlyKey = defineTsRule({
  code: "ts/append-only-key",
  severity: "warning",
  family: "TypeScript code",
  traits: { load: true },
  docs: {
    summary: "the partition key starts with the clock (or a time bucket, or a hash of one), a time-ordered id or a counter",
    why: "Every new entity gets a key next to the last one, so all inserts hit one range partition on one server.",
    fix: "a prefix of 16 buckets hashed from a value that varies among the entities of the moment (the row key, an id), with the `node:crypto` import",
  },
  messages: {
    appendOnly: (p: { lead: "clock" | "hashedClock" | "timeId" | "counter"; part: string }) =>
      `the partition key starts with ${APPEND_LEADS[p.lead]} ('${p.part}'): every new entity gets a key next to the last one, so all inserts hit one range partition on one server. ` +
      "Prefix a bucket hashed from a value that varies among the entities written at the same moment (the row key, an id): a hash of the clock is still one bucket per moment.",
  },

  check(ctx) {
    for (const key of writtenPartitionKeys(ctx)) {
      const lead = key.parts.find((p) => p.kind !== "literal");
      if (!lead || (lead.kind !== "clock" && lead.kind !== "time-id" && lead.kind !== "counter")) continue;
      const what = lead.kind === "clock" ? (lead.hashed ? "hashedClock" : "clock") : lead.kind === "time-id" ? "timeId" : "counter";
      const fix = bucketPrefixFix(ctx, key);
      const at = inThisFile(ctx, lead.node) ? lead.node : key.at;
      ctx.report(span(ctx.sf, at), "appendOnly", { lead: what, part: lead.node.getText() }, { fixes: fix ? [fix] : undefined });
    }
  },
});

/** Buckets of the hash prefix: a reader of one moment fans out to this many partitions. */
const BUCKETS_HEX_DIGITS = 1;

/**
 * `partitionKey: createHash("md5").update(rowKey).digest("hex").slice(0, 1) + "_" + <the key>`: 16 buckets from a
 * value that varies among the entities of one moment (never the clock value itself, which would give one bucket
 * per moment), so a reader who knows the entity recomputes the key.
 */
function bucketPrefixFix(ctx: TsRuleContext, key: Key): Fix | undefined {
  const sf = ctx.sf;
  if (key.at !== key.expr) return undefined;
  const source = keyMaterial(ctx, key, { rowKey: true, pure: true })[0];
  if (!source) return undefined;
  const value = text(sf, source.expr);
  const input = source.kind === "number" ? `String(${value})` : value;
  const original = text(sf, key.expr);
  const keyText = needsParens(skipOuter(key.expr)) ? `(${original})` : original;
  const edits: TextEdit[] = [];
  const imp = createHashImport(sf);
  if (imp) edits.push(imp);
  const prefix = `createHash("md5").update(${input}).digest("hex").slice(0, ${BUCKETS_HEX_DIGITS})`;
  edits.push({ ...span(sf, key.expr), newText: `${prefix} + "_" + ${keyText}` });
  return { title: `Prefix ${16 ** BUCKETS_HEX_DIGITS} buckets hashed from ${source.name}: ${prefix} + "_"`, edits, preferred: true };
}

/** A conditional or a binary expression is parenthesised after `"_" +` (`now + offset` must stay a sum). */
function needsParens(e: ts.Expression): boolean {
  return ts.isConditionalExpression(e) || ts.isBinaryExpression(e);
}

export const invalidKeyCharacter = defineTsRule({
  code: "ts/invalid-key-character",
  severity: "error",
  family: "TypeScript code",
  docs: {
    summary: "a literal in a key holds `/ \\ # ?` or a control character",
    why: "The service rejects keys holding these characters: the write fails at run time.",
    fix: "replace it",
  },
  messages: {
    forbidden: (p: { chars: string[]; service: string; forbidden: string }) =>
      `${p.chars.map(showChar).join(", ")} cannot appear in a ${p.service} key (forbidden: ${p.forbidden}).`,
  },

  check(ctx) {
    const forbidden = ctx.profile.forbiddenKeyChar;
    if (!forbidden) return;
    for (const key of ctx.keys) {
      for (const p of key.parts) {
        if (p.kind !== "literal" || !p.text || !inThisFile(ctx, p.node)) continue;
        const bad = [...new Set([...p.text].filter((ch) => forbidden(ch.charCodeAt(0))))];
        if (!bad.length) continue;
        const src = text(ctx.sf, p.node);
        const replaced = [...src].map((ch, i) => (i > 0 && i < src.length - 1 && bad.includes(ch) ? "_" : ch)).join("");
        ctx.report(
          span(ctx.sf, p.node),
          "forbidden",
          { chars: bad, service: ctx.profile.label, forbidden: ctx.profile.forbiddenKeyText ?? "" },
          {
            fixes: [
              {
                title: `Replace ${bad.map(showChar).join(", ")} with '_'`,
                edits: [{ ...span(ctx.sf, p.node), newText: replaced }],
                preferred: true,
              },
            ],
          },
        );
      }
    }
  },
});

/** Lowest character of a variable-length part whose alphabet is known. */
function variableAlphabetMin(p: TsKeyPart): number | undefined {
  if (p.kind === "value" && p.type === "number") return 0x2d; // '-' and digits
  if (p.kind === "value" && p.literals && p.literals.length > 1) {
    const prefixProne = p.literals.some((a) => p.literals!.some((b) => a !== b && b.startsWith(a)));
    if (!prefixProne) return undefined;
    return Math.min(...p.literals.flatMap((l) => [...l].map((c) => c.charCodeAt(0))));
  }
  return undefined;
}

export const separatorOrder = defineTsRule({
  code: "ts/separator-order",
  severity: "warning",
  family: "TypeScript code",
  docs: {
    summary: "a separator sorts above a character of the variable-length part before it",
    why: 'Composite keys then sort differently from their parts: `"a100:"` sorts after `"a1001:"`.',
    fix: "a separator that sorts below every character of the part (`,`)",
  },
  messages: {
    order: (p: { separator: string; part: string; low: string; replacement: string }) =>
      `"${p.separator}" after '${p.part}' sorts above '${p.low}', a character it may contain, so composite keys sort out of order. Use "${p.replacement}", which sorts below every character of the part.`,
  },

  check(ctx) {
    for (const key of ctx.keys) {
      for (let i = 0; i < key.parts.length - 1; i++) {
        const min = variableAlphabetMin(key.parts[i]);
        const next = key.parts[i + 1];
        if (min === undefined || next.kind !== "literal" || !next.text || next.text.charCodeAt(0) <= min) continue;
        const sep = separatorBelow(min, ctx.profile) ?? ",";
        const node = next.node;
        if (!inThisFile(ctx, node)) continue;
        const src = text(ctx.sf, node);
        // Replace the first character of the literal's text (after its opening quote or template brace).
        const offset = src.indexOf(next.text[0], ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) ? 1 : 0);
        const start = node.getStart(ctx.sf) + offset;
        ctx.report(
          { start, end: start + 1 },
          "order",
          { separator: next.text[0], part: text(ctx.sf, key.parts[i].node), low: String.fromCharCode(min), replacement: sep },
          {
            fixes: [{ title: `Use "${sep}" as the separator`, edits: [{ start, end: start + 1, newText: sep }], preferred: true }],
          },
        );
      }
    }
  },
});
