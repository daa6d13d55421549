/**
 * Key rules (`docs/rules.md`, "Keys"): unpadded numbers, pads too narrow,
 * separators that break composite order, forbidden characters, keys too long.
 */
import { Expr, isNumberLit, Part, Table } from "../tdl/ast";
import { KeyInfo, KeyPartInfo } from "../model/key-parts";
import { tableFacts } from "../model/facts";
import { charsetFind, charsetMin } from "../model/charset";
import { keyBytes } from "../model/key-bytes";
import { bucketWidth, DATE_TOKENS } from "../model/key-functions";
import { maxKeyChars, sampleValue, renderScalar } from "../model/keys";
import { renderedDigits } from "../model/properties";
import { ServiceProfile } from "../services";
import { separatorBreaksOrder } from "../model/where";
import { formatCount, showChar } from "../text/words";
import { Fix } from "../findings";
import { chooseSeparator, padWidth, tdlString } from "./fix-helpers";
import { defineRule, TableContext } from "./rule";

/** A key of the table, named as findings name it, with its analysis and its byte limit. */
export interface NamedKey {
  label: string;
  expr: Expr;
  info: KeyInfo;
  limit: number;
}

/** The table's keys: partitionKey, rowKey and each index's rowKey, with their analysis. */
export function tableKeys(ctx: TableContext): NamedKey[] {
  const t = ctx.table;
  const { est } = tableFacts(t, ctx.props);
  const out: NamedKey[] = [];
  if (t.partitionKey && est.pk)
    out.push({ label: "partitionKey", expr: t.partitionKey.expr, info: est.pk, limit: ctx.profile.partitionKeyMaxBytes });
  if (t.rowKey && est.rk) out.push({ label: "rowKey", expr: t.rowKey.expr, info: est.rk, limit: ctx.profile.rowKeyMaxBytes });
  t.indexes.forEach((ix, i) =>
    out.push({ label: `index ${ix.name.text} rowKey`, expr: ix.expr, info: est.indexKeys[i], limit: ctx.profile.rowKeyMaxBytes }),
  );
  return out;
}

/** The property reference a part renders directly (a ref, possibly under lower/upper). */
function directRef(part: Part): Extract<Part, { kind: "ref" }> | undefined {
  if (part.kind === "ref") return part;
  if (part.kind === "call" && (part.fnName === "lower" || part.fnName === "upper")) {
    const inner = part.args[0];
    if (inner && "kind" in inner && inner.kind === "expr" && inner.parts.length === 1) return directRef(inner.parts[0]);
  }
  return undefined;
}

/** Properties some query compares with a range (<, <=, >, >=, between, prefix). */
function rangedProperties(table: Table): Set<string> {
  const out = new Set<string>();
  for (const a of table.accesses) if (a.kind === "query") for (const c of a.where ?? []) if (c.op !== "=") out.add(c.property.text);
  return out;
}

/** The fix that pads an unpadded integer part. */
export function padFix(ref: Extract<Part, { kind: "ref" }>, width: number): Fix {
  const name = ref.name.text;
  return {
    title: `Pad ${name} to ${width} digits: pad(${name}, ${width})`,
    edits: [{ start: ref.start, end: ref.end, newText: `pad(${name}, ${width})` }],
    preferred: true,
  };
}

export const unpaddedNumber = defineRule({
  code: "key/unpadded-number",
  severity: "warning",
  family: "Keys",
  docs: {
    summary: 'an integer enters a key without `pad`: "111" sorts before "2"',
    why: "Keys sort as text, so numbers out of padding sort out of numeric order and a range over them returns the wrong entities.",
    fix: "`pad(P, W)` with W the digits of the range's maximum",
    severityNote: "warning (error when a query ranges over it)",
  },
  messages: {
    unpadded: (p: { type: string; name: string; key: string; width: number; ranged: boolean }) =>
      `${p.type} '${p.name}' enters the ${p.key} without pad: keys sort as text, so "111" sorts before "2"` +
      (p.ranged ? "; a query ranges over it, so its key range would return the wrong entities" : "") +
      `. Pad it to ${p.width} digits (its largest value has ${p.width}).`,
  },

  checkTable(ctx) {
    const ranged = rangedProperties(ctx.table);
    for (const key of tableKeys(ctx)) {
      // Tablestore: a key that is one integer column sorts numerically.
      if (ctx.profile.integerKeysSortNumerically && key.expr.parts.length === 1 && key.expr.parts[0].kind === "ref") continue;
      for (const part of key.expr.parts) {
        const ref = directRef(part);
        const info = ref && ctx.props.get(ref.name.text);
        if (!ref || !info || (info.type !== "int" && info.type !== "int64")) continue;
        const width = padWidth(info);
        const isRanged = ranged.has(info.name);
        ctx.report(
          ref,
          "unpadded",
          { type: info.type, name: info.name, key: key.label, width, ranged: isRanged },
          { fixes: [padFix(ref, width)], severity: isRanged ? "error" : "warning" },
        );
      }
    }
  },
});

/** Digits the inner value of a `pad` needs. */
function neededWidth(part: Extract<Part, { kind: "call" }>, info: KeyPartInfo | undefined, ctx: TableContext): number | undefined {
  const inner = part.args[0];
  if (!inner || !("kind" in inner) || inner.kind !== "expr" || inner.parts.length !== 1) return undefined;
  const p = inner.parts[0];
  if (p.kind === "ref") {
    const prop = ctx.props.get(p.name.text);
    return prop && (prop.type === "int" || prop.type === "int64") ? padWidth(prop) : undefined;
  }
  if (p.kind === "call" && p.fnName === "reverse" && info?.prop?.max !== undefined && info.prop.type !== "datetime")
    return renderedDigits(info.prop.max);
  if (p.kind === "call" && p.fnName === "bucket" && isNumberLit(p.args[1])) return bucketWidth(p.args[1].value);
  return undefined;
}

export const padTooNarrow = defineRule({
  code: "key/pad-too-narrow",
  severity: "error",
  family: "Keys",
  docs: {
    summary: "`pad` narrower than the largest value",
    why: 'A value wider than the pad is not padded, so it sorts out of order ("100" before "99").',
    fix: "widen the pad to the digits of the largest value",
  },
  messages: {
    narrow: (p: { width: number; needed: number }) =>
      `pad width ${p.width} is too narrow: values reach ${p.needed} digits, and wider values sort out of order ("100" sorts before "99"). Widen it to ${p.needed}.`,
  },

  checkTable(ctx) {
    for (const key of tableKeys(ctx)) {
      key.info.parts.forEach((info) => {
        const part = info.part;
        if (part.kind !== "call" || part.fnName !== "pad" || !isNumberLit(part.args[1])) return;
        const width = part.args[1];
        const needed = neededWidth(part, info, ctx);
        if (needed === undefined || width.value >= needed) return;
        ctx.report(
          part,
          "narrow",
          { width: width.value, needed },
          {
            fixes: [
              {
                title: `Widen the pad to ${needed} digits`,
                edits: [{ start: width.start, end: width.end, newText: String(needed) }],
                preferred: true,
              },
            ],
          },
        );
      });
    }
  },
});

/** The fix that replaces the separator after part `i` (undefined when no character fits). */
export function separatorFix(parts: KeyPartInfo[], i: number, profile: ServiceProfile): Fix | undefined {
  const lit = parts[i + 1].part;
  const sep = chooseSeparator([parts[i], parts[i + 2]], profile);
  if (!sep || lit.kind !== "string") return undefined;
  const text = lit.value;
  // A literal of separator characters is replaced whole; otherwise only its first character.
  const replacement = /^[^A-Za-z0-9]+$/.test(text) ? sep : sep + text.slice(1);
  return {
    title: `Use ${tdlString(replacement)} as the separator: it sorts below every character before it`,
    edits: [{ start: lit.start, end: lit.end, newText: tdlString(replacement) }],
    preferred: true,
  };
}

export const separatorOrder = defineRule({
  code: "key/separator-order",
  severity: "warning",
  family: "Keys",
  docs: {
    summary: 'a variable-length part is followed by a separator that sorts above one of its characters: `"a100:"` sorts after `"a1001:"`',
    why: "Composite keys then sort differently from their parts, so ranges and prefixes over the first part return the wrong entities.",
    fix: "a separator below every character of the part (`,` for letters and digits)",
  },
  messages: {
    order: (p: { separator: string; part?: string; low: string; sample: string; fix?: string }) =>
      `"${p.separator}" after ${p.part ?? "a variable-length part"} sorts above '${p.low}', a character it may contain, so composite keys sort out of order: ` +
      `"${p.sample}${p.separator}" sorts after "${p.sample}${p.low}${p.separator}". Use a separator that sorts below every character of the part` +
      (p.fix ? ` (${p.fix}).` : "."),
  },

  checkTable(ctx) {
    for (const key of tableKeys(ctx)) {
      const parts = key.info.parts;
      for (let i = 0; i < parts.length - 1; i++) {
        if (!separatorBreaksOrder(parts, i)) continue;
        const part = parts[i];
        const lit = parts[i + 1];
        const sep = lit.literal![0];
        const low = String.fromCharCode(charsetMin(part.charset!));
        const sample = part.prop ? renderScalar(sampleValue(part.prop)).slice(0, 6) : "a1";
        const fix = separatorFix(parts, i, ctx.profile);
        ctx.report(
          lit.part,
          "order",
          {
            separator: sep,
            ...(part.prop ? { part: part.prop.name } : {}),
            low,
            sample,
            ...(fix ? { fix: fix.edits[0].newText } : {}),
          },
          { fixes: fix ? [fix] : undefined },
        );
      }
    }
  },
});

/** Every date token, in the order `dateFormatParts` tries them. */
const DATE_TOKEN_PATTERN = new RegExp(DATE_TOKENS.join("|"), "g");

function forbiddenIn(text: string, profile: ServiceProfile): string[] {
  return [...new Set([...text].filter((ch) => profile.forbiddenKeyChar!(ch.charCodeAt(0))))];
}

export const invalidCharacter = defineRule({
  code: "key/invalid-character",
  severity: "error",
  family: "Keys",
  docs: {
    summary: "`/ \\ # ?` or a control character in a key literal, a date format, or a property's `charset`",
    why: "The service rejects keys holding these characters: the write fails at run time.",
    fix: "replace the character",
  },
  messages: {
    literal: (p: { chars: string[]; service: string; forbidden: string }) =>
      `${p.chars.map(showChar).join(", ")} cannot appear in a ${p.service} key (forbidden: ${p.forbidden})`,
    dateFormat: (p: { chars: string[]; service: string }) =>
      `the date format renders ${p.chars.map(showChar).join(", ")}, which cannot appear in a ${p.service} key`,
    charset: (p: { name: string; char: string; charset: string; service: string }) =>
      `'${p.name}' may contain ${showChar(p.char)} (its charset "${p.charset}"), which cannot appear in a ${p.service} key: narrow the charset or encode the value`,
  },

  checkTable(ctx) {
    const profile = ctx.profile;
    if (!profile.forbiddenKeyChar) return;
    for (const key of tableKeys(ctx)) {
      key.info.parts.forEach((info, i) => {
        const part = info.part;
        if (part.kind === "string") {
          const bad = forbiddenIn(part.value, profile);
          if (!bad.length) return;
          const sep = chooseSeparator([key.info.parts[i - 1], key.info.parts[i + 1]], profile) ?? "_";
          const fixed = [...part.value].map((ch) => (bad.includes(ch) ? sep : ch)).join("");
          ctx.report(
            part,
            "literal",
            { chars: bad, service: profile.label, forbidden: profile.forbiddenKeyText ?? "" },
            {
              fixes: [
                {
                  title: `Replace ${bad.map(showChar).join(", ")} with '${sep}'`,
                  edits: [{ start: part.start, end: part.end, newText: tdlString(fixed) }],
                  preferred: true,
                },
              ],
            },
          );
          return;
        }
        if (part.kind === "call" && part.fnName === "date" && part.args[1] && "kind" in part.args[1] && part.args[1].kind === "string") {
          const fmt = part.args[1];
          const bad = forbiddenIn(fmt.value.replace(DATE_TOKEN_PATTERN, ""), profile);
          if (!bad.length) return;
          ctx.report(
            fmt,
            "dateFormat",
            { chars: bad, service: profile.label },
            {
              fixes: [
                {
                  title: "Use '-' in the date format",
                  edits: [
                    {
                      start: fmt.start,
                      end: fmt.end,
                      newText: tdlString([...fmt.value].map((ch) => (bad.includes(ch) ? "-" : ch)).join("")),
                    },
                  ],
                  preferred: true,
                },
              ],
            },
          );
          return;
        }
        if (info.prop?.charset && info.props.length === 1 && (part.kind === "ref" || part.fnName === "lower" || part.fnName === "upper")) {
          const c = charsetFind(info.prop.charset, (code) => profile.forbiddenKeyChar!(code));
          if (c < 0) return;
          ctx.report(part, "charset", {
            name: info.prop.name,
            char: String.fromCharCode(c),
            charset: info.prop.charset.source,
            service: profile.label,
          });
        }
      });
    }
  },
});

export const tooLong = defineRule({
  code: "key/too-long",
  severity: "error",
  family: "Keys",
  docs: {
    summary: "the longest key exceeds the service's key size (Azure: 1 KiB in UTF-16, 512 characters)",
    why: "The service rejects a key over its size limit; the longest values of the parts reach it.",
  },
  messages: {
    tooLong: (p: { key: string; chars: number; bytes: number; encoding: string; service: string; limit: number }) =>
      `the longest ${p.key} is ${formatCount(p.chars)} characters = ${formatCount(p.bytes)} bytes (${p.encoding}); ${p.service} allows ${formatCount(p.limit)} bytes. Shorten its parts or declare tighter string lengths.`,
  },

  checkTable(ctx) {
    for (const key of tableKeys(ctx)) {
      const bytes = keyBytes(key.expr, ctx.props, ctx.profile);
      if (!Number.isFinite(bytes) || bytes <= key.limit) continue;
      const chars = maxKeyChars(key.expr, ctx.props);
      const encoding = ctx.profile.keyEncoding === "utf16" ? "UTF-16, 2 bytes a character" : "UTF-8";
      ctx.report(key.expr, "tooLong", { key: key.label, chars, bytes, encoding, service: ctx.profile.label, limit: key.limit });
    }
  },
});
