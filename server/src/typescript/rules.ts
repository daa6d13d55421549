/**
 * The `ts/*` rules of `rules.md` over what `calls.ts` found in a file:
 * key construction, transactions, query classes and read-then-write.
 */
import ts from "typescript";
import { Classification, badge, classifyFilter, parseFilter, PropertyInfo, ServiceProfile, padWidth, separatorBelow, Finding, Fix, TextEdit } from "../core";
import { EntityWrite, FileUsage } from "./calls";
import { bindBefore, createHashImport, freshName } from "./edits";
import { filterText } from "./filters";
import { KeyDecomposer, skipOuter, TsKeyPart } from "./key-parts";

export interface TsRuleContext {
  sf: ts.SourceFile;
  checker: ts.TypeChecker;
  usage: FileUsage;
  profile: ServiceProfile;
  /** A design table's properties, when a `.tdl` in the workspace declares a table of that name. */
  design(table: string | undefined): ReadonlyMap<string, PropertyInfo> | undefined;
  report(f: Finding): void;
}

export interface TsQuery {
  call: ts.CallExpression;
  table?: string;
  classification: Classification;
}

const span = (sf: ts.SourceFile, n: ts.Node) => ({ start: n.getStart(sf), end: n.getEnd() });
const text = (sf: ts.SourceFile, n: ts.Node) => n.getText(sf);

interface Key {
  which: "partitionKey" | "rowKey";
  expr: ts.Expression;
  parts: TsKeyPart[];
  table?: string;
  write?: EntityWrite;
}

function keysOf(ctx: TsRuleContext, d: KeyDecomposer): Key[] {
  const out: Key[] = [];
  const writes = [...ctx.usage.writes, ...ctx.usage.transactions.flatMap((t) => t.writes)];
  for (const w of writes) {
    if (w.partitionKey) out.push({ which: "partitionKey", expr: w.partitionKey, parts: d.parts(w.partitionKey), table: w.table, write: w });
    if (w.rowKey) out.push({ which: "rowKey", expr: w.rowKey, parts: d.parts(w.rowKey), table: w.table, write: w });
  }
  for (const k of ctx.usage.keyed) {
    out.push({ which: "partitionKey", expr: k.partitionKey, parts: d.parts(k.partitionKey), table: k.table });
    out.push({ which: "rowKey", expr: k.rowKey, parts: d.parts(k.rowKey), table: k.table });
  }
  return out;
}

/** Runs every ts/* rule; returns the classified queries for CodeLens and the CLI. */
export function runTsRules(ctx: TsRuleContext): TsQuery[] {
  const d = new KeyDecomposer(ctx.checker);
  const keys = keysOf(ctx, d);
  const seen = new Set<string>();
  const report = (f: Finding) => {
    const id = `${f.code}:${f.start}:${f.end}`;
    if (!seen.has(id)) { seen.add(id); ctx.report(f); }
  };
  for (const key of keys) {
    unpaddedNumber(ctx, key, report);
    invalidCharacter(ctx, key, report);
    separatorOrder(ctx, key, report);
    if (key.which === "partitionKey" && key.write) {
      appendOnly(ctx, key, report);
      if (!key.write.inTransaction) constantPartitionKey(ctx, key, report);
    }
  }
  transactions(ctx, d, report);
  readBeforeWrite(ctx, report);
  return queries(ctx, report);
}

function unpaddedNumber(ctx: TsRuleContext, key: Key, report: (f: Finding) => void): void {
  for (const p of key.parts) {
    if (p.kind !== "value" || p.type !== "number") continue;
    const design = ctx.design(key.table);
    const prop = p.name ? [...(design?.values() ?? [])].find((i) => i.name.toLowerCase() === p.name!.toLowerCase() && (i.type === "int" || i.type === "int64")) : undefined;
    const width = prop ? padWidth(prop) : 10;
    const src = text(ctx.sf, p.node);
    const padded = /^String\(/.test(src) || /\.toString\(\)$/.test(src) ? `${src}.padStart(${width}, "0")` : `String(${src}).padStart(${width}, "0")`;
    report({
      code: "ts/unpadded-number", severity: "warning", ...span(ctx.sf, p.node),
      message: `'${src}' is a number entering the ${key.which} without padding: keys sort as text, so "111" sorts before "2". ` +
        `Pad it to ${width} digits${prop ? ` (design property ${prop.name} reaches ${prop.max})` : ""}.`,
      fixes: [{ title: `Pad to ${width} digits: ${padded}`, edits: [{ ...span(ctx.sf, p.node), newText: padded }], preferred: true }],
    });
  }
}

function appendOnly(ctx: TsRuleContext, key: Key, report: (f: Finding) => void): void {
  const lead = key.parts.find((p) => p.kind !== "literal");
  if (!lead || (lead.kind !== "clock" && lead.kind !== "time-id" && lead.kind !== "counter")) return;
  const what = lead.kind === "clock" ? "the clock" : lead.kind === "time-id" ? "a time-ordered id" : "a counter incremented in place";
  const fix = hashPrefixFix(ctx, key);
  report({
    code: "ts/append-only-key", severity: "warning", ...span(ctx.sf, lead.node),
    message: `the partition key starts with ${what} ('${text(ctx.sf, lead.node)}'): every new entity gets a key next to the last one, so all inserts hit one range partition on one server. Prefix a hash of the key.`,
    fixes: fix ? [fix] : undefined,
  });
}

/** `const k = String(x); … partitionKey: createHash("md5").update(k).digest("hex").slice(0, 4) + "_" + k`. */
function hashPrefixFix(ctx: TsRuleContext, key: Key): Fix | undefined {
  const sf = ctx.sf;
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
  return { title: "Prefix a hash of the key: createHash(\"md5\")…slice(0, 4) + \"_\"", edits, preferred: true };
}

function constantPartitionKey(ctx: TsRuleContext, key: Key, report: (f: Finding) => void): void {
  if (!key.parts.length || !key.parts.every((p) => p.kind === "literal")) return;
  const value = key.parts.map((p) => p.text).join("");
  const obj = key.write?.object;
  let fix: Fix | undefined;
  if (obj) {
    const other = obj.properties.find((p): p is ts.PropertyAssignment | ts.ShorthandPropertyAssignment =>
      (ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) && !["partitionKey", "rowKey"].includes(p.name.getText(ctx.sf)) &&
      isKeyable(ctx, ts.isPropertyAssignment(p) ? p.initializer : p.name));
    if (other) {
      const valueExpr = ts.isPropertyAssignment(other) ? other.initializer : other.name;
      const isNumber = (ctx.checker.getTypeAtLocation(valueExpr).flags & ts.TypeFlags.NumberLike) !== 0;
      const part = isNumber ? `String(${text(ctx.sf, valueExpr)}).padStart(10, "0")` : text(ctx.sf, valueExpr);
      const newText = `${JSON.stringify(value + "_")} + ${part}`;
      fix = { title: `Make the partition key composite with ${other.name.getText(ctx.sf)}`, edits: [{ ...span(ctx.sf, key.expr), newText }], preferred: true };
    }
  }
  report({
    code: "ts/constant-partition-key", severity: "warning", ...span(ctx.sf, key.expr),
    message: `every entity written here gets the partition key "${value}": the table is one partition on one server. Build it from a property that varies.`,
    fixes: fix ? [fix] : undefined,
  });
}

function isKeyable(ctx: TsRuleContext, e: ts.Expression): boolean {
  const t = ctx.checker.getTypeAtLocation(e);
  return (t.flags & (ts.TypeFlags.StringLike | ts.TypeFlags.NumberLike)) !== 0 && !ts.isStringLiteralLike(skipOuter(e)) && !ts.isNumericLiteral(skipOuter(e));
}

function invalidCharacter(ctx: TsRuleContext, key: Key, report: (f: Finding) => void): void {
  const forbidden = ctx.profile.forbiddenKeyChar;
  if (!forbidden) return;
  for (const p of key.parts) {
    if (p.kind !== "literal" || !p.text) continue;
    const bad = [...new Set([...p.text].filter((ch) => forbidden(ch.charCodeAt(0))))];
    if (!bad.length) continue;
    const node = p.node;
    const src = text(ctx.sf, node);
    const replaced = [...src].map((ch, i) => (i > 0 && i < src.length - 1 && bad.includes(ch) ? "_" : ch)).join("");
    report({
      code: "ts/invalid-key-character", severity: "error", ...span(ctx.sf, node),
      message: `${bad.map((c) => `'${c}'`).join(", ")} cannot appear in a ${ctx.profile.label} key (forbidden: / \\ # ? and control characters).`,
      fixes: [{ title: `Replace ${bad.map((c) => `'${c}'`).join(", ")} with '_'`, edits: [{ ...span(ctx.sf, node), newText: replaced }], preferred: true }],
    });
  }
}

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

function separatorOrder(ctx: TsRuleContext, key: Key, report: (f: Finding) => void): void {
  for (let i = 0; i < key.parts.length - 1; i++) {
    const min = variableAlphabetMin(key.parts[i]);
    const next = key.parts[i + 1];
    if (min === undefined || next.kind !== "literal" || !next.text || next.text.charCodeAt(0) <= min) continue;
    const sep = separatorBelow(min, ctx.profile) ?? ",";
    const node = next.node;
    const src = text(ctx.sf, node);
    // Replace the first character of the literal's text (after its opening quote or template brace).
    const offset = src.indexOf(next.text[0], ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) ? 1 : 0);
    const start = node.getStart(ctx.sf) + offset;
    report({
      code: "ts/separator-order", severity: "warning", start, end: start + 1,
      message: `"${next.text[0]}" after '${text(ctx.sf, key.parts[i].node)}' sorts above '${String.fromCharCode(min)}', a character it may contain, so composite keys sort out of order. Use "${sep}", which sorts below every character of the part.`,
      fixes: [{ title: `Use "${sep}" as the separator`, edits: [{ start, end: start + 1, newText: sep }], preferred: true }],
    });
  }
}

function transactions(ctx: TsRuleContext, d: KeyDecomposer, report: (f: Finding) => void): void {
  for (const tx of ctx.usage.transactions) {
    const constants = new Set<string>();
    let unknown = false;
    for (const w of tx.writes) {
      const parts = w.partitionKey ? d.parts(w.partitionKey) : [];
      if (parts.length && parts.every((p) => p.kind === "literal")) constants.add(parts.map((p) => p.text).join(""));
      else unknown = true;
    }
    if (constants.size > 1) {
      report({
        code: "ts/cross-partition-transaction", severity: "error", ...span(ctx.sf, tx.call),
        message: `submitTransaction's actions have different partition keys (${[...constants].map((c) => `"${c}"`).join(", ")}${unknown ? ", …" : ""}): an entity group transaction must stay in one partition, so the service rejects it.`,
      });
    }
    if (tx.count !== undefined && tx.count > ctx.profile.batchMaxOperations) {
      report({
        code: "ts/transaction-too-large", severity: "error", ...span(ctx.sf, tx.call),
        message: `submitTransaction with ${tx.count} actions: a ${ctx.profile.label} batch holds at most ${ctx.profile.batchMaxOperations}. Split it into groups of ${ctx.profile.batchMaxOperations}.`,
      });
    }
  }
}

function queries(ctx: TsRuleContext, report: (f: Finding) => void): TsQuery[] {
  const out: TsQuery[] = [];
  const at = (call: ts.CallExpression) => span(ctx.sf, ts.isPropertyAccessExpression(call.expression) ? call.expression.name : call);
  for (const k of ctx.usage.keyed) {
    if (k.method !== "getEntity") continue;
    const c: Classification = { class: "point", partitions: 1, scanned: 1, returned: 1, selectivity: 1, reasons: ["PartitionKey and RowKey are both given"] };
    out.push({ call: k.call, table: k.table, classification: c });
    report({ code: "ts/query-class", severity: "info", ...at(k.call), message: badge(c) });
  }
  for (const l of ctx.usage.lists) {
    let c: Classification | undefined;
    if (!l.filter) {
      c = { class: "table-scan", partitions: null, scanned: null, returned: null, selectivity: null, reasons: ["no filter: every entity of every partition is listed"] };
    } else {
      const src = filterText(l.filter, ctx.checker);
      const parsed = src !== undefined ? parseFilter(src) : undefined;
      if (parsed?.ok) c = classifyFilter(parsed.expr);
    }
    if (!c) continue;
    out.push({ call: l.call, table: l.table, classification: c });
    const label = c.class === "table-scan" ? "table-scan · scans every partition" : badge(c);
    report({ code: "ts/query-class", severity: "info", ...at(l.call), message: label });
    if (c.class === "table-scan") {
      report({
        code: "ts/table-scan", severity: "warning", ...at(l.call),
        message: `this listEntities call is a table scan: ${c.reasons[0]}. Pin PartitionKey with 'eq' (and RowKey for a point read), or key a table for this query.`,
      });
    }
  }
  return out;
}

/** getEntity followed by createEntity/updateEntity on the same keys in one function: use upsertEntity. */
function readBeforeWrite(ctx: TsRuleContext, report: (f: Finding) => void): void {
  const sf = ctx.sf;
  const fnOf = (n: ts.Node) => { let p: ts.Node | undefined = n.parent; while (p && !ts.isFunctionLike(p)) p = p.parent; return p; };
  for (const read of ctx.usage.keyed) {
    if (read.method !== "getEntity") continue;
    const fn = fnOf(read.call);
    const pk = text(sf, read.partitionKey);
    const rk = text(sf, read.rowKey);
    const write = ctx.usage.writes.find((w) => (w.method === "createEntity" || w.method === "updateEntity") && fnOf(w.call) === fn &&
      w.call.getStart(sf) > read.call.getStart(sf) && w.partitionKey && w.rowKey && text(sf, w.partitionKey) === pk && text(sf, w.rowKey) === rk);
    if (!write || !ts.isPropertyAccessExpression(write.call.expression)) continue;
    const edits: TextEdit[] = [{ start: write.call.expression.name.getStart(sf), end: write.call.getEnd(), newText: `upsertEntity(${text(sf, write.call.arguments[0])}, "Merge")` }];
    const readStatement = ts.isAwaitExpression(read.call.parent) ? read.call.parent.parent : read.call.parent;
    if (ts.isExpressionStatement(readStatement)) {
      const start = readStatement.getFullStart();
      edits.push({ start, end: readStatement.getEnd(), newText: "" });
    }
    report({
      code: "ts/read-before-write", severity: "info", ...span(sf, read.call),
      message: `getEntity then ${write.method} on the same keys: two round trips and a race between them. upsertEntity(entity, "Merge") does it in one, atomically.`,
      fixes: [{ title: `Use upsertEntity(${text(sf, write.call.arguments[0])}, "Merge")`, edits, preferred: true }],
    });
  }
}
