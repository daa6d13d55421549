/**
 * Read-then-write over TypeScript code: `getEntity` followed, in the same
 * function, by an unconditional `updateEntity`/`upsertEntity` of the same
 * keys — a lost-update race. Correct code stays silent: a write that passes
 * the read's ETag (`{ etag }`) is optimistic concurrency, and insert-if-absent
 * (`createEntity`, which fails with 409 when the entity exists) is atomic.
 * No fix removes a concurrency check: the fixes either drop a read whose
 * values the write never uses, or add the read's ETag.
 */
import ts from "typescript";
import { Fix, TextEdit } from "@core";
import { EntityWrite, KeyedCall } from "../calls";
import { skipOuter } from "../key-parts";
import * as path from "node:path";
import { ReadTracer } from "../reads";
import { span, text, TsRule, TsRuleContext } from "./rule";

const functionOf = (n: ts.Node) => {
  let p: ts.Node | undefined = n.parent;
  while (p && !ts.isFunctionLike(p)) p = p.parent;
  return p;
};

/** The variable a read's result is bound to: `const existing = await client.getEntity(…)`. */
function resultOf(read: ts.CallExpression): ts.VariableDeclaration | undefined {
  let n: ts.Node = read.parent;
  while (ts.isAwaitExpression(n) || ts.isParenthesizedExpression(n) || ts.isAsExpression(n)) n = n.parent;
  return ts.isVariableDeclaration(n) ? n : undefined;
}

/** True when `node` mentions one of the symbols the read's result is bound to. */
function mentions(ctx: TsRuleContext, node: ts.Node, symbols: ReadonlySet<ts.Symbol>): boolean {
  if (!symbols.size) return false;
  let found = false;
  const visit = (n: ts.Node): void => {
    if (found) return;
    if (ts.isIdentifier(n)) {
      const s = ctx.checker.getSymbolAtLocation(n);
      if (s && symbols.has(s)) found = true;
    }
    ts.forEachChild(n, visit);
  };
  visit(node);
  return found;
}

function boundSymbols(ctx: TsRuleContext, decl: ts.VariableDeclaration | undefined): Set<ts.Symbol> {
  const out = new Set<ts.Symbol>();
  const visit = (n: ts.Node): void => {
    if (ts.isIdentifier(n)) {
      const s = ctx.checker.getSymbolAtLocation(n);
      if (s) out.add(s);
    } else ts.forEachChild(n, visit);
  };
  if (decl) visit(decl.name);
  return out;
}

/** The write passes an ETag: `updateEntity(e, mode, { etag })` (any `etag` in its options; options not followed count as passing one). */
function passesEtag(ctx: TsRuleContext, w: EntityWrite): boolean {
  if (!w.options) return false;
  const found = ctx.usageFinder.entities.objectOf(w.options, w.env);
  if (!found) return true;
  const etag = ctx.decomposer.values.property([{ kind: "expr", expr: found.object, env: found.env }], "etag");
  return etag.some((v) => v.kind !== "absent");
}

function sameKeys(ctx: TsRuleContext, read: KeyedCall, w: EntityWrite, result: ReadonlySet<ts.Symbol>): boolean {
  const sf = ctx.sf;
  if (
    w.partitionKey &&
    w.rowKey &&
    text(sf, w.partitionKey) === text(sf, read.partitionKey) &&
    text(sf, w.rowKey) === text(sf, read.rowKey)
  )
    return true;
  // The entity written is the read's result, or spreads it (its keys come with it).
  const entity = skipOuter(w.entity);
  if (
    mentions(ctx, entity, result) &&
    (ts.isIdentifier(entity) ||
      (ts.isObjectLiteralExpression(entity) && entity.properties.some((p) => ts.isSpreadAssignment(p) && mentions(ctx, p, result))))
  )
    return true;
  return !!w.partitionKey && !!w.rowKey && mentions(ctx, w.partitionKey, result) && mentions(ctx, w.rowKey, result);
}

export const readBeforeWrite: TsRule = {
  code: "ts/read-before-write",
  severity: "info",
  family: "TypeScript code",
  docs: {
    summary:
      "`getEntity` then an unconditional `updateEntity`/`upsertEntity` of the same keys (a lost-update race); not with the read's `etag`, nor insert-if-absent",
    why: "Another writer can change the entity between the read and the write; the write then overwrites that change unseen.",
    fix: "update-or-create: one `upsertEntity(entity, mode)`; read-modify-write: pass the read's ETag (`updateEntity(entity, mode, { etag })`)",
  },
  check(ctx) {
    const sf = ctx.sf;
    const told = new Set<EntityWrite>();
    for (const read of ctx.usage.keyed) {
      if (read.method !== "getEntity") continue;
      const fn = functionOf(read.call);
      const decl = resultOf(read.call);
      const result = boundSymbols(ctx, decl);
      const write = ctx.usage.writes.find(
        (w) =>
          isUpdate(w) &&
          functionOf(w.call) === fn &&
          w.call.getStart(sf) > read.call.getEnd() &&
          sameKeys(ctx, read, w, result) &&
          !passesEtag(ctx, w),
      );
      if (!write || !ts.isPropertyAccessExpression(write.call.expression)) continue;
      told.add(write);
      const usesRead = mentions(ctx, write.call, result) || usedBetween(ctx, read.call, write.call, result);
      const fix = usesRead ? etagFix(ctx, write, decl) : upsertFix(ctx, read, write, decl);
      const mode = write.mode ?? "Merge";
      ctx.report(
        span(sf, read.call),
        `getEntity then ${write.method} of the same keys without the read's ETag: another writer can change the entity in between, and this write overwrites that change (a lost update). ` +
          (usesRead
            ? "Pass the read's ETag so the service rejects the write when the entity changed (412), then read again."
            : `The write does not use what was read: one upsertEntity(entity, "${mode}") does the same without the race.`),
        { fixes: fix ? [fix] : undefined },
      );
    }
    // The entity written comes from a read made elsewhere: a helper that returns getEntity's result, a `let` assigned in
    // a try block, a row of a listing written back.
    const tracer = new ReadTracer(ctx.checker, ctx.decomposer.values);
    const reported = new Set<ts.Node>();
    for (const w of ctx.usage.writes) {
      if (told.has(w) || !isUpdate(w) || passesEtag(ctx, w)) continue;
      const src = tracer.of(w);
      if (!src || (src.kind === "row" && !src.whole && w.mode !== "Replace") || !sameTable(ctx, src.call, w)) continue;
      // Read and written inside the helper a call goes through: the helper's own finding, not one per caller.
      if (w.via && functionOf(src.call) === functionOf(w.via)) continue;
      const here = src.call.getSourceFile() === sf && functionOf(src.call) === functionOf(w.call);
      const at = here ? src.call : w.call;
      if (reported.has(at)) continue;
      reported.add(at);
      const what =
        src.kind === "row"
          ? "an entity read by listEntities is written back"
          : here
            ? "the entity read by getEntity is written back"
            : `the entity read by getEntity (in ${path.basename(src.call.getSourceFile().fileName)}) is written back`;
      ctx.report(
        span(sf, at),
        `${what} with ${w.method} without its ETag: another writer can change the entity in between, and this write overwrites that change (a lost update). ` +
          `Pass the read's ETag (${w.method === "upsertEntity" ? "updateEntity(entity, mode, { etag })" : "{ etag }"}) so the service rejects the write when the entity changed (412), then read again.`,
      );
    }
  },
};

const isUpdate = (w: EntityWrite) => w.method === "updateEntity" || w.method === "upsertEntity";

/** The read and the write are on the same table: known and equal names, or the same client expression when a name is not known. */
function sameTable(ctx: TsRuleContext, read: ts.CallExpression, w: EntityWrite): boolean {
  const receiver = (read.expression as ts.PropertyAccessExpression).expression;
  const readTable = ctx.usageFinder.tableOf(receiver);
  if (readTable && w.table) return readTable === w.table;
  const sdkCall = w.via ?? w.call;
  if (!ts.isPropertyAccessExpression(sdkCall.expression)) return false;
  return skipOuter(receiver).getText() === skipOuter(sdkCall.expression.expression).getText();
}

/** True when the read's result is used between the read and the write (a read-modify-write through mutation). */
function usedBetween(ctx: TsRuleContext, read: ts.CallExpression, write: ts.CallExpression, result: ReadonlySet<ts.Symbol>): boolean {
  const fn = functionOf(read);
  if (!fn || !result.size) return false;
  let used = false;
  const visit = (n: ts.Node): void => {
    if (used) return;
    if (n.getStart(ctx.sf) > read.getEnd() && n.getEnd() <= write.getStart(ctx.sf) && ts.isIdentifier(n)) {
      const s = ctx.checker.getSymbolAtLocation(n);
      if (s && result.has(s)) used = true;
    }
    ts.forEachChild(n, visit);
  };
  visit(fn);
  return used;
}

/** Read-modify-write: `updateEntity(entity, mode, { etag: existing.etag })`. */
function etagFix(ctx: TsRuleContext, w: EntityWrite, decl: ts.VariableDeclaration | undefined): Fix | undefined {
  if (!decl || !ts.isIdentifier(decl.name) || w.options) return undefined;
  const sf = ctx.sf;
  const callee = w.call.expression as ts.PropertyAccessExpression;
  const mode = w.call.arguments[1] ? text(sf, w.call.arguments[1]) : `"${w.mode ?? "Merge"}"`;
  const newText = `updateEntity(${text(sf, w.entity)}, ${mode}, { etag: ${decl.name.text}.etag })`;
  return {
    title: `Pass the read's ETag: ${newText}`,
    edits: [{ start: callee.name.getStart(sf), end: w.call.getEnd(), newText }],
    preferred: true,
  };
}

/** Update-or-create that does not use the read: drop the read, write with `upsertEntity(entity, mode)`. */
function upsertFix(ctx: TsRuleContext, read: KeyedCall, w: EntityWrite, decl: ts.VariableDeclaration | undefined): Fix | undefined {
  const sf = ctx.sf;
  let statement: ts.Node = read.call.parent;
  while (ts.isAwaitExpression(statement) || ts.isParenthesizedExpression(statement)) statement = statement.parent;
  if (decl) {
    // `const existing = await …` whose name nothing else uses: the whole declaration goes.
    const list = decl.parent;
    if (!ts.isVariableDeclarationList(list) || list.declarations.length !== 1 || !ts.isVariableStatement(list.parent)) return undefined;
    if (mentions(ctx, functionOf(read.call) ?? sf, boundSymbols(ctx, decl)) && referencesOutside(ctx, decl)) return undefined;
    statement = list.parent;
  }
  if (!ts.isExpressionStatement(statement) && !ts.isVariableStatement(statement)) return undefined;
  const callee = w.call.expression as ts.PropertyAccessExpression;
  const newText = `upsertEntity(${text(sf, w.entity)}, "${w.mode ?? "Merge"}")`;
  const edits: TextEdit[] = [{ start: statement.getFullStart(), end: statement.getEnd(), newText: "" }];
  if (w.method !== "upsertEntity" || w.call.arguments.length > 2)
    edits.push({ start: callee.name.getStart(sf), end: w.call.getEnd(), newText });
  return { title: `Drop the read and use ${newText}`, edits, preferred: true };
}

/** True when the declared names are used anywhere but in their own declaration. */
function referencesOutside(ctx: TsRuleContext, decl: ts.VariableDeclaration): boolean {
  const syms = boundSymbols(ctx, decl);
  let used = false;
  const visit = (n: ts.Node): void => {
    if (used || n === decl.name) return;
    if (ts.isIdentifier(n)) {
      const s = ctx.checker.getSymbolAtLocation(n);
      if (s && syms.has(s)) used = true;
    }
    ts.forEachChild(n, visit);
  };
  visit(functionOf(decl) ?? ctx.sf);
  return used;
}
