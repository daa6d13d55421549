/**
 * Key rules over TypeScript code (docs/rules.md, "TypeScript code"): numbers
 * without padding, keys that start with the clock, constant partition keys,
 * forbidden characters and separators that break composite order.
 */
import ts from "typescript";
import { Fix, padWidth, plural, separatorBelow, showChar, TextEdit } from "@core";
import { bindBefore, createHashImport, freshName } from "../edits";
import { skipOuter, TsKeyPart, constantText } from "../key-parts";
import * as path from "node:path";
import { Key, span, text, TsRule, TsRuleContext } from "./rule";

export const unpaddedNumber: TsRule = {
  code: "ts/unpadded-number",
  severity: "warning",
  family: "TypeScript code",
  docs: {
    summary: "a number enters a key without `padStart`",
    why: 'Keys sort as text: "111" sorts before "2", so numeric order and ranges break.',
    fix: '`String(x).padStart(W, "0")`, W from a design property of the same name, else 10',
  },
  check(ctx) {
    for (const key of ctx.keys) {
      for (const p of key.parts) {
        if (p.kind !== "value" || p.type !== "number") continue;
        // A part built in another file (a helper's return): reported on this file's key, without an edit elsewhere.
        if (!inThisFile(ctx, p.node)) {
          ctx.report(
            span(ctx.sf, key.at),
            `the ${key.which} '${key.expr.getText()}' holds a number without padding ('${p.node.getText()}' in ${path.basename(p.node.getSourceFile().fileName)}): keys sort as text, so "111" sorts before "2". Pad it with padStart.`,
          );
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
          `'${src}' is a number entering the ${key.which} without padding: keys sort as text, so "111" sorts before "2". ` +
            `Pad it to ${width} digits${prop ? ` (design property ${prop.name} reaches ${prop.max})` : ""}.`,
          {
            fixes: [{ title: `Pad to ${width} digits: ${padded}`, edits: [{ ...span(ctx.sf, p.node), newText: padded }], preferred: true }],
          },
        );
      }
    }
  },
};

/** True when a key part's node is in the file being analysed (a helper's return may live in another). */
const inThisFile = (ctx: TsRuleContext, n: ts.Node) => n.getSourceFile() === ctx.sf;

/** The partition keys of entities written outside transactions and inside them. */
const writtenPartitionKeys = (ctx: TsRuleContext) => ctx.keys.filter((k) => k.which === "partitionKey" && k.write);

export const appendOnlyKey: TsRule = {
  code: "ts/append-only-key",
  severity: "warning",
  family: "TypeScript code",
  docs: {
    summary: "the partition key starts with the clock, a time-ordered id or a counter",
    why: "Every new entity gets a key next to the last one, so all inserts hit one range partition on one server.",
    fix: "a hash prefix bound to a `const`, with the `node:crypto` import",
  },
  check(ctx) {
    for (const key of writtenPartitionKeys(ctx)) {
      const lead = key.parts.find((p) => p.kind !== "literal");
      if (!lead || (lead.kind !== "clock" && lead.kind !== "time-id" && lead.kind !== "counter")) continue;
      const what = lead.kind === "clock" ? "the clock" : lead.kind === "time-id" ? "a time-ordered id" : "a counter incremented in place";
      const fix = hashPrefixFix(ctx, key);
      const at = inThisFile(ctx, lead.node) ? lead.node : key.at;
      ctx.report(
        span(ctx.sf, at),
        `the partition key starts with ${what} ('${lead.node.getText()}'): every new entity gets a key next to the last one, so all inserts hit one range partition on one server. Prefix a hash of the key.`,
        { fixes: fix ? [fix] : undefined },
      );
    }
  },
};

/** `const k = String(x); … partitionKey: createHash("md5").update(k).digest("hex").slice(0, 4) + "_" + k`. */
function hashPrefixFix(ctx: TsRuleContext, key: Key): Fix | undefined {
  const sf = ctx.sf;
  if (key.at !== key.expr) return undefined;
  const src = text(sf, key.expr);
  const isString = (ctx.checker.getTypeAtLocation(key.expr).flags & ts.TypeFlags.StringLike) !== 0;
  const simple = ts.isIdentifier(skipOuter(key.expr));
  const edits: TextEdit[] = [];
  let ref = src;
  if (!simple || !isString) {
    ref = freshName(sf, "keyValue");
    const bind = bindBefore(sf, key.expr, ref, isString ? src : `String(${src})`);
    if (!bind) return undefined;
    edits.push(bind);
  }
  const imp = createHashImport(sf);
  if (imp) edits.push(imp);
  edits.push({ ...span(sf, key.expr), newText: `createHash("md5").update(${ref}).digest("hex").slice(0, 4) + "_" + ${ref}` });
  return { title: 'Prefix a hash of the key: createHash("md5")…slice(0, 4) + "_"', edits, preferred: true };
}

export const constantPartitionKey: TsRule = {
  code: "ts/constant-partition-key",
  severity: "warning",
  family: "TypeScript code",
  docs: {
    summary: "every entity written at the call gets the same partition key (judged per table across the project)",
    why: "The table is then one partition on one server: its throughput is one partition's.",
    fix: "composite with another property of the entity",
  },
  check(ctx) {
    const t = ctx.profile.partitionTarget;
    const target = t ? ` (one partition's target: ${t.value.toLocaleString("en-US")} ${t.unit})` : "";
    // One finding per table in a file when no write of the table varies its key: the other sites and constants are listed in it
    // (a status table written with "pending", "done" and "failed" is one problem, not three).
    const told = new Set<string>();
    for (const key of writtenPartitionKeys(ctx)) {
      if (key.write!.method === "delete") continue;
      const value = constantText(key.parts);
      if (value === undefined) continue;
      const fix = key.declared ? undefined : compositeFix(ctx, key, value);
      const where = key.declared
        ? `its declared type fixes the partition key "${value}"`
        : `every entity written here gets the partition key "${value}"`;
      const sites = ctx.tableSites(key.table);
      // Sites whose key cannot be seen (an entity passed through, a stored key written back) count for neither side;
      // sites whose key varies spread the table.
      const varying = sites?.sites.filter((s) => !s.unknown && s.constant === undefined) ?? [];
      const same = sites?.sites.filter((s) => s.constant === value) ?? [];
      if (sites && same.length && !varying.length) {
        if (told.has(sites.table)) continue;
        told.add(sites.table);
        const list =
          same
            .slice(0, 3)
            .map((s) => `${path.basename(s.file)}:${s.line}`)
            .join(", ") + (same.length > 3 ? ", …" : "");
        const constants = [...new Set(sites.sites.map((s) => s.constant).filter((c): c is string => c !== undefined))];
        const whole =
          constants.length === 1
            ? "the whole table is one partition on one server"
            : `the whole table has ${constants.length} partitions (${constants
                .slice(0, 4)
                .map((c) => `"${c}"`)
                .join(", ")}${constants.length > 4 ? ", …" : ""}), each on one server`;
        ctx.report(
          span(ctx.sf, key.at),
          `${where} (${plural(same.length, "site")} in the project: ${list}), and no write to table "${sites.table}" varies its partition key: ` +
            `${whole}${target}. Build the key from a property that varies.`,
          { fixes: fix ? [fix] : undefined },
        );
      } else if (sites && varying.length) {
        // Other writes of the table spread their keys: only this site's entities share a partition. Said quietly (a hint).
        ctx.report(
          span(ctx.sf, key.at),
          `${where}; other writes to table "${sites.table}" (${varying.length}) vary their keys, so only the entities written here share one partition.`,
          { fixes: fix ? [fix] : undefined, severity: "hint" },
        );
      } else {
        ctx.report(
          span(ctx.sf, key.at),
          `${where}: the table is one partition on one server${target}. Build it from a property that varies.`,
          { fixes: fix ? [fix] : undefined },
        );
      }
    }
  },
};

function compositeFix(ctx: TsRuleContext, key: Key, value: string): Fix | undefined {
  const obj = key.write?.object;
  if (!obj || key.at !== key.expr || obj.getSourceFile() !== ctx.sf) return undefined;
  const other = obj.properties.find(
    (p): p is ts.PropertyAssignment | ts.ShorthandPropertyAssignment =>
      (ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) &&
      !["partitionKey", "rowKey"].includes(p.name.getText(ctx.sf)) &&
      isKeyable(ctx, ts.isPropertyAssignment(p) ? p.initializer : p.name),
  );
  if (!other) return undefined;
  const valueExpr = ts.isPropertyAssignment(other) ? other.initializer : other.name;
  const isNumber = (ctx.checker.getTypeAtLocation(valueExpr).flags & ts.TypeFlags.NumberLike) !== 0;
  const part = isNumber ? `String(${text(ctx.sf, valueExpr)}).padStart(10, "0")` : text(ctx.sf, valueExpr);
  const newText = `${JSON.stringify(value + "_")} + ${part}`;
  return {
    title: `Make the partition key composite with ${other.name.getText(ctx.sf)}`,
    edits: [{ ...span(ctx.sf, key.at), newText }],
    preferred: true,
  };
}

function isKeyable(ctx: TsRuleContext, e: ts.Expression): boolean {
  const t = ctx.checker.getTypeAtLocation(e);
  return (
    (t.flags & (ts.TypeFlags.StringLike | ts.TypeFlags.NumberLike)) !== 0 &&
    !ts.isStringLiteralLike(skipOuter(e)) &&
    !ts.isNumericLiteral(skipOuter(e))
  );
}

export const invalidKeyCharacter: TsRule = {
  code: "ts/invalid-key-character",
  severity: "error",
  family: "TypeScript code",
  docs: {
    summary: "a literal in a key holds `/ \\ # ?` or a control character",
    why: "The service rejects keys holding these characters: the write fails at run time.",
    fix: "replace it",
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
          `${bad.map(showChar).join(", ")} cannot appear in a ${ctx.profile.label} key (forbidden: ${ctx.profile.forbiddenKeyText}).`,
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
};

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

export const separatorOrder: TsRule = {
  code: "ts/separator-order",
  severity: "warning",
  family: "TypeScript code",
  docs: {
    summary: "a separator sorts above a character of the variable-length part before it",
    why: 'Composite keys then sort differently from their parts: `"a100:"` sorts after `"a1001:"`.',
    fix: "a separator that sorts below every character of the part (`,`)",
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
          `"${next.text[0]}" after '${text(ctx.sf, key.parts[i].node)}' sorts above '${String.fromCharCode(min)}', a character it may contain, so composite keys sort out of order. Use "${sep}", which sorts below every character of the part.`,
          {
            fixes: [{ title: `Use "${sep}" as the separator`, edits: [{ start, end: start + 1, newText: sep }], preferred: true }],
          },
        );
      }
    }
  },
};
