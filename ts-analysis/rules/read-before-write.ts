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
import { HelperReads, textIn } from "../read-summaries";
import { Env, skipValue } from "../values";
import { exits } from "../returns";
import { defineTsRule, span, text, TsRuleContext } from "./rule";

/** The function a node runs in; a function invoked where it is written (`((e) => …)(x)`) runs in the one around it. */
const functionOf = (n: ts.Node) => {
  let p: ts.Node | undefined = n.parent;
  while (p && (!ts.isFunctionLike(p) || invokedInPlace(p))) p = p.parent;
  return p;
};

function invokedInPlace(fn: ts.Node): boolean {
  if (!ts.isArrowFunction(fn) && !ts.isFunctionExpression(fn)) return false;
  let outer: ts.Node = fn;
  while (ts.isParenthesizedExpression(outer.parent)) outer = outer.parent;
  return ts.isCallExpression(outer.parent) && outer.parent.expression === outer;
}

/** The variable a read's result is bound to: `const existing = await client.getEntity(…)`. */
function resultOf(read: ts.CallExpression): ts.VariableDeclaration | undefined {
  const n = boundBy(read);
  return n && ts.isVariableDeclaration(n) ? n : undefined;
}

/**
 * What a read's result is bound to: the declaration (`const existing = await …`), or the variable a
 * plain assignment gives it to (`existing = await …`, a `let` declared before a `try`).
 */
function boundBy(read: ts.CallExpression): ts.VariableDeclaration | ts.Identifier | undefined {
  let c: ts.Node = read;
  let n: ts.Node = read.parent;
  while (ts.isAwaitExpression(n) || ts.isParenthesizedExpression(n) || ts.isAsExpression(n) || ts.isNonNullExpression(n)) {
    c = n;
    n = n.parent;
  }
  if (ts.isVariableDeclaration(n) && n.initializer === c) return n;
  if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.EqualsToken && n.right === c && ts.isIdentifier(n.left))
    return n.left;
  return undefined;
}

/** The variable an identifier names; in a shorthand property (`{ count }`) the variable, not the property. */
function symbolAt(ctx: TsRuleContext, n: ts.Identifier): ts.Symbol | undefined {
  if (ts.isShorthandPropertyAssignment(n.parent) && n.parent.name === n) return ctx.checker.getShorthandAssignmentValueSymbol(n.parent);
  return ctx.checker.getSymbolAtLocation(n);
}

/** True when `node` mentions one of the symbols the read's result is bound to. */
function mentions(ctx: TsRuleContext, node: ts.Node, symbols: ReadonlySet<ts.Symbol>): boolean {
  if (!symbols.size) return false;
  let found = false;
  const visit = (n: ts.Node): void => {
    if (found) return;
    if (ts.isIdentifier(n)) {
      const s = symbolAt(ctx, n);
      if (s && symbols.has(s)) found = true;
    }
    ts.forEachChild(n, visit);
  };
  visit(node);
  return found;
}

function boundSymbols(ctx: TsRuleContext, decl: ts.VariableDeclaration | ts.Identifier | undefined): Set<ts.Symbol> {
  const out = new Set<ts.Symbol>();
  if (decl && ts.isIdentifier(decl)) {
    const s = ctx.checker.getSymbolAtLocation(decl);
    if (s) out.add(s);
    return out;
  }
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
  // The keys compared as text in this function's words: a helper's parameters replaced by what is passed to them.
  const keys = HELPER_KEYS.get(read.call) ?? {
    partitionKey: textIn(read.partitionKey, undefined, ctx.checker),
    rowKey: textIn(read.rowKey, undefined, ctx.checker),
  };
  if (
    w.partitionKey &&
    w.rowKey &&
    textIn(w.partitionKey, w.partitionKeyEnv ?? w.env, ctx.checker) === keys.partitionKey &&
    textIn(w.rowKey, w.rowKeyEnv ?? w.env, ctx.checker) === keys.rowKey
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

export const readBeforeWrite = defineTsRule({
  code: "ts/read-before-write",
  severity: "info",
  family: "TypeScript code",
  docs: {
    summary:
      "`getEntity` then an unconditional `updateEntity`/`upsertEntity` of the same keys (a lost-update race); not with the read's `etag`, nor insert-if-absent",
    why: "Another writer can change the entity between the read and the write; the write then overwrites that change unseen.",
    fix: "update-or-create: one `upsertEntity(entity, mode)`; read-modify-write: pass the read's ETag (`updateEntity(entity, mode, { etag })`)",
  },
  messages: {
    readThenWrite: (p: { helper?: string; method: string; usesRead: boolean; mode: string }) =>
      `${p.helper ? `getEntity (through ${p.helper}())` : "getEntity"} then ${p.method} of the same keys without the read's ETag: another writer can change the entity in between, and this write overwrites that change (a lost update). ` +
      (p.usesRead
        ? "Pass the read's ETag so the service rejects the write when the entity changed (412), then read again."
        : `The write does not use what was read: one upsertEntity(entity, "${p.mode}") does the same without the race.`),
    helperReadThenWrite: (p: { helper: string; line: number; method: string; usesRead: boolean; mode: string }) =>
      `the entity read by getEntity (through ${p.helper}() at line ${p.line}) is written back by ${p.method} of the same keys without its ETag: another writer can change the entity in between, and this write overwrites that change (a lost update). ` +
      (p.usesRead
        ? "Pass the read's ETag so the service rejects the write when the entity changed (412), then read again."
        : `The write does not use what was read: one upsertEntity(entity, "${p.mode}") does the same without the race.`),
    createIfAbsent: () =>
      "getEntity then upsertEntity of the same keys only when the read found nothing: two callers can both find nothing, " +
      "and the second write replaces what the first wrote and handed out (a lost update). Use createEntity, which fails " +
      "with 409 when the entity exists, and read it again then.",
    writtenBack: (p: { read: "row" | "here" | "elsewhere"; place?: string; method: string }) =>
      `${
        p.read === "row"
          ? "an entity read by listEntities is written back"
          : p.read === "here"
            ? "the entity read by getEntity is written back"
            : `the entity read by getEntity (in ${p.place}) is written back`
      } with ${p.method} without its ETag: another writer can change the entity in between, and this write overwrites that change (a lost update). ` +
      `Pass the read's ETag (${p.method === "upsertEntity" ? "updateEntity(entity, mode, { etag })" : "{ etag }"}) so the service rejects the write when the entity changed (412), then read again.`,
  },

  check(ctx) {
    const sf = ctx.sf;
    const told = new Set<EntityWrite>();
    const tracer = new ReadTracer(ctx.checker, ctx.decomposer.values);
    for (const read of [...ctx.usage.keyed, ...helperReads(ctx, tracer)]) {
      if (read.method !== "getEntity") continue;
      const fn = functionOf(read.call);
      const decl = resultOf(read.call);
      const result = boundSymbols(ctx, boundBy(read.call));
      const helper = isHelperRead(read);
      const racing = ctx.usage.writes.filter(
        (w) =>
          isUpdate(w) &&
          functionOf(w.call) === fn &&
          w.call.getStart(sf) > read.call.getEnd() &&
          (!read.table || !w.table || read.table === w.table) &&
          reaches(read.call, w.call) &&
          sameKeys(ctx, read, w, result) &&
          !passesEtag(ctx, w),
      );
      // A read of the SDK is reported once, at the read (its first write says why); a read through the application's
      // helper is reported at each write it races with: the SDK call there is what to change, and each is its own race.
      for (const write of helper ? racing : racing.slice(0, 1)) {
        // A write through a helper (`save(table, entity)`) is the helper's SDK call made with this call's arguments.
        if (!(ts.isPropertyAccessExpression(write.call.expression) || write.via)) continue;
        // Read through a helper and written back whole: said below, at the write, as the entity written back.
        if (helper && tracer.of(write)) continue;
        told.add(write);
        // A write built from what was read races with other writers; a write that ignores the read, while the read
        // only decides whether to write, is an update-or-create; a read used for something else (an assertion, a log)
        // and a write that ignores it are two independent calls.
        const usesRead = dependsOnRead(ctx, read.call, write.call, result, write.object);
        const decides = usesRead || onlyDecides(ctx, read.call, result);
        // Written only when the read found nothing, and the read used for more (the entity returned): insert-if-absent
        // made with an upsert. A race when what it writes differs from caller to caller (a fresh token, a request's
        // data); one that writes what any caller would (keys, fixed text, the clock) loses nothing.
        if (
          !decides &&
          !helper &&
          write.method === "upsertEntity" &&
          onlyWhenAbsent(write.call, fn, result, ctx) &&
          differsByCaller(ctx, write)
        ) {
          ctx.report(span(sf, read.call), "createIfAbsent");
          continue;
        }
        if (!decides) continue;
        // The read only tells whether the entity exists, and that decides whether (or what) to write — written when
        // absent, a 404 or 409 returned when present, a created-at stamp added —, while the write is not built from
        // what was read: no value read is lost, and one upsert would not do the same.
        if (!usesRead && existenceDecides(ctx, read, write, result, fn)) continue;
        const fix = helper || write.via ? undefined : usesRead ? etagFix(ctx, write, decl) : upsertFix(ctx, read, write, decl);
        const mode = write.mode ?? "Merge";
        if (helper)
          ctx.report(
            span(sf, write.call),
            "helperReadThenWrite",
            { helper: calleeName(read.call), line: lineOf(sf, read.call), method: write.method, usesRead, mode },
            { fixes: fix ? [fix] : undefined },
          );
        else ctx.report(span(sf, read.call), "readThenWrite", { method: write.method, usesRead, mode }, { fixes: fix ? [fix] : undefined });
      }
    }
    // The entity written comes from a read made elsewhere: a helper that returns getEntity's result, a `let` assigned in
    // a try block, a row of a listing written back.
    const reported = new Set<ts.Node>();
    for (const w of ctx.usage.writes) {
      if (told.has(w) || !isUpdate(w) || passesEtag(ctx, w)) continue;
      const src = tracer.of(w);
      if (!src || (src.kind === "row" && !src.whole && w.mode !== "Replace") || !sameTable(ctx, src.call, w)) continue;
      // Read and written inside the helper a call goes through: the helper's own finding, not one per caller.
      if (w.via && functionOf(src.call) === functionOf(w.via)) continue;
      // Written through a helper called here: the caller's finding only when it passes the read in; a helper that
      // reads and writes on its own is reported where it does, not at every call of it.
      if (w.via && !w.call.arguments.some((a) => tracer.ofValueAt(a)?.call === src.call)) continue;
      const here = src.call.getSourceFile() === sf && functionOf(src.call) === functionOf(w.call);
      const at = here ? src.call : w.call;
      if (reported.has(at)) continue;
      reported.add(at);
      ctx.report(
        span(sf, at),
        "writtenBack",
        src.kind === "row"
          ? { read: "row", method: w.method }
          : here
            ? { read: "here", method: w.method }
            : { read: "elsewhere", place: readPlace(ctx, src.call), method: w.method },
      );
    }
  },
});

/** True when `write` runs only where the read found nothing: under `if (!r)`, `if (r == null)`, or in the `else` of `if (r)`. */
function onlyWhenAbsent(write: ts.Node, fn: ts.Node | undefined, result: ReadonlySet<ts.Symbol>, ctx: TsRuleContext): boolean {
  if (!result.size) return false;
  const isRead = (e: ts.Expression) => {
    let x = skipOuter(e);
    while (ts.isPropertyAccessExpression(x)) x = skipOuter(x.expression);
    const s = ts.isIdentifier(x) ? ctx.checker.getSymbolAtLocation(x) : undefined;
    return !!s && result.has(s);
  };
  const absentTest = (e: ts.Expression): boolean => {
    const x = skipOuter(e);
    if (ts.isPrefixUnaryExpression(x) && x.operator === ts.SyntaxKind.ExclamationToken) return isRead(x.operand);
    if (!ts.isBinaryExpression(x)) return false;
    const op = x.operatorToken.kind;
    const eq = op === ts.SyntaxKind.EqualsEqualsToken || op === ts.SyntaxKind.EqualsEqualsEqualsToken;
    const nothing = (y: ts.Expression) => y.kind === ts.SyntaxKind.NullKeyword || (ts.isIdentifier(y) && y.text === "undefined");
    return eq && ((isRead(x.left) && nothing(skipOuter(x.right))) || (isRead(x.right) && nothing(skipOuter(x.left))));
  };
  for (let c: ts.Node = write, p = write.parent; p && p !== fn; c = p, p = p.parent) {
    if (!ts.isIfStatement(p)) continue;
    if (p.thenStatement === c && absentTest(p.expression)) return true;
    if (p.elseStatement === c && isRead(p.expression)) return true;
  }
  return false;
}

/** True when the entity written holds a value that is not its keys, fixed text or the clock: callers write different entities. */
function differsByCaller(ctx: TsRuleContext, w: EntityWrite): boolean {
  const keys = [w.partitionKey, w.rowKey].filter((k): k is ts.Expression => !!k).map((k) => skipOuter(k).getText());
  for (const v of ctx.decomposer.values.values(w.entity, w.env)) {
    const obj = v.kind === "expr" ? skipValue(v.expr) : undefined;
    if (!obj || !ts.isObjectLiteralExpression(obj)) return true;
    for (const p of obj.properties) {
      if (!ts.isPropertyAssignment(p) && !ts.isShorthandPropertyAssignment(p)) return true;
      const value = ts.isPropertyAssignment(p) ? p.initializer : p.name;
      if (keys.includes(skipOuter(value).getText())) continue;
      const parts = ctx.decomposer.parts(value, 0, v.kind === "expr" ? v.env : undefined);
      if (parts.some((x) => x.kind !== "literal" && x.kind !== "clock" && !(x.kind === "value" && x.literals?.length === 1))) {
        if (!ts.isPropertyAssignment(p) || !["partitionKey", "rowKey"].includes(p.name.getText())) return true;
      }
    }
  }
  return false;
}

/**
 * True when whether the read found the entity decides whether or what the write writes: the write sits in a
 * branch of a test of the read's result (`if (found)`, `if (!found) return`), or the read sits in a `try` whose
 * rest or `catch` ends the function or changes a value (a `createdAt` added on 404) before the write runs. False
 * for an update-or-create (the other branch, or the `catch`, writes the same keys: one upsert does the same) and
 * for a read whose outcome changes nothing (an empty `catch`): that read can go.
 */
function existenceDecides(
  ctx: TsRuleContext,
  keyed: KeyedCall,
  write: EntityWrite,
  result: ReadonlySet<ts.Symbol>,
  fn: ts.Node | undefined,
): boolean {
  if (!fn) return false;
  const sf = ctx.sf;
  const read = keyed.call;
  const inside = (outer: ts.Node | undefined, n: ts.Node) =>
    !!outer && n.getStart(sf) >= outer.getStart(sf) && n.getEnd() <= outer.getEnd();
  const writesSameKeys = (branch: ts.Node | undefined) =>
    ctx.usage.writes.some((o) => o.call !== write.call && inside(branch, o.call) && sameKeys(ctx, keyed, o, result));
  // Tested through its result: the first test after the read that decides the write says.
  const tests: ts.IfStatement[] = [];
  const visit = (n: ts.Node): void => {
    if (
      ts.isIfStatement(n) &&
      n.getStart(sf) > read.getEnd() &&
      n.getStart(sf) < write.call.getStart(sf) &&
      mentions(ctx, n.expression, result)
    )
      tests.push(n);
    if (!ts.isFunctionLike(n) || n === fn) ts.forEachChild(n, visit);
  };
  if (result.size) visit(fn);
  for (const t of tests) {
    const [branch, other] = inside(t.thenStatement, write.call)
      ? [t.thenStatement, t.elseStatement]
      : inside(t.elseStatement, write.call)
        ? [t.elseStatement, t.thenStatement]
        : [undefined, undefined];
    if (branch) return !writesSameKeys(other);
    if (exits(t.thenStatement) || (t.elseStatement && exits(t.elseStatement))) return true;
  }
  // Tested by whether it threw: the innermost `try` around the read, in this function.
  let t: ts.Node = read;
  while (t !== fn && !(ts.isTryStatement(t) && inside(t.tryBlock, read))) t = t.parent;
  if (!ts.isTryStatement(t) || !t.catchClause) return false;
  const handler = t.catchClause.block;
  // A bare probe (`await get(…)`, its result not kept) and the write after it in the `try`: written only when the read
  // found the entity, an update of what exists, unless the `catch` creates it (update-or-create). A kept result is
  // judged by its tests above: a `try` around both may be any error's handler.
  if (inside(t.tryBlock, write.call)) return !result.size && !writesSameKeys(handler);
  if (write.call.getStart(sf) < t.getEnd()) return false;
  const rest = t.tryBlock.statements.filter((s) => s.getStart(sf) > read.getEnd());
  return exits(handler) || changesSomething(handler) || rest.some((s) => exits(s) || changesSomething(s));
}

/** True when a statement assigns something (`entity.createdAt = now`, `found = true`), outside nested functions. */
function changesSomething(s: ts.Node): boolean {
  let found = false;
  const visit = (n: ts.Node): void => {
    if (found || ts.isFunctionLike(n)) return;
    if (changes(n)) found = true;
    else ts.forEachChild(n, visit);
  };
  visit(s);
  return found;
}

/**
 * False when the read sits in a block that ends (returns or throws) before the write can run: a GET branch
 * that reads and returns, and a PUT branch after it that writes, are two requests, not a read then a write.
 */
function reaches(read: ts.Node, write: ts.Node): boolean {
  const contains = (outer: ts.Node) => write.getStart() >= outer.getStart() && write.getEnd() <= outer.getEnd();
  for (let c: ts.Node = read; c.parent && !contains(c.parent); c = c.parent) if (ts.isBlock(c.parent) && exits(c.parent)) return false;
  return true;
}

const HELPER_READS = new WeakSet<ts.CallExpression>();
/** The keys of a read made through a helper whose result is mapped before it is returned, in the caller's words. */
const HELPER_KEYS = new WeakMap<ts.CallExpression, { partitionKey: string; rowKey: string }>();
const lineOf = (sf: ts.SourceFile, n: ts.Node) => sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
const isHelperRead = (read: KeyedCall) => HELPER_READS.has(read.call);

function calleeName(c: ts.CallExpression): string {
  const e = skipOuter(c.expression);
  return ts.isPropertyAccessExpression(e) ? e.name.text : e.getText();
}

/**
 * Reads made through a helper of the program and kept here: `const before = await lookup(pk, rk)` where
 * `lookup` returns `client.getEntity(pk, rk)` (null when absent, say). Their keys are the arguments the
 * helper's parameters are bound to here, or literals the helper writes itself; anything else is not a key
 * this function can compare.
 */
function helperReads(ctx: TsRuleContext, tracer: ReadTracer): KeyedCall[] {
  const out: KeyedCall[] = [];
  const values = ctx.decomposer.values;
  const summaries = new HelperReads(ctx.checker);
  // Only where a read can pair with a write: the functions that update or upsert (following a call costs a signature).
  const scopes = new Set<ts.Node>();
  for (const w of ctx.usage.writes) {
    const fn = isUpdate(w) ? functionOf(w.call) : undefined;
    if (fn && fn.getSourceFile() === ctx.sf) scopes.add(fn);
  }
  // Walked with a stack of its own: a key of 5,000 concatenated parts is a tree 5,000 deep.
  const stack: ts.Node[] = [...scopes];
  while (stack.length) {
    const n = stack.pop()!;
    ts.forEachChild(n, (c) => void (ts.isFunctionLike(c) || stack.push(c)));
    if (!ts.isCallExpression(n) || !boundBy(n) || tracer.isGetEntity(n)) continue;
    // A function invoked where it is written is this function's own flow: its read is a read here, seen as such.
    const callee = skipOuter((n as ts.CallExpression).expression);
    if (ts.isArrowFunction(callee) || ts.isFunctionExpression(callee)) continue;
    let found = false;
    for (const v of values.values(n)) {
      if (v.kind !== "expr") continue;
      const got = skipValue(v.expr);
      if (!tracer.isGetEntity(got) || got.arguments.length < 2) continue;
      const partitionKey = keyHere(ctx, got.arguments[0], v.env, n);
      const rowKey = partitionKey && keyHere(ctx, got.arguments[1], v.env, n);
      if (!partitionKey || !rowKey) continue;
      const receiver = (got.expression as ts.PropertyAccessExpression).expression;
      HELPER_READS.add(n);
      out.push({ call: n, method: "getEntity", partitionKey, rowKey, table: ctx.usageFinder.tableOf(receiver) });
      found = true;
      break;
    }
    // A helper that maps what it read before returning it (`toRecord(await client.getEntity(…))`): its summary.
    const summary = found ? undefined : summaries.at(n);
    if (!summary) continue;
    HELPER_READS.add(n);
    HELPER_KEYS.set(n, { partitionKey: summary.partitionKey, rowKey: summary.rowKey });
    const receiver = (summary.get.expression as ts.PropertyAccessExpression).expression;
    out.push({ call: n, method: "getEntity", partitionKey: n, rowKey: n, table: ctx.usageFinder.tableOf(receiver) });
  }
  return out;
}

/** A key argument of a read inside a helper, as this call gives it: the argument bound to that parameter here, or a literal. */
function keyHere(ctx: TsRuleContext, arg: ts.Expression, env: Env, call: ts.CallExpression): ts.Expression | undefined {
  const x = skipOuter(arg);
  if (ts.isStringLiteralLike(x)) return x;
  if (!ts.isIdentifier(x)) return undefined;
  const sym = ctx.checker.getSymbolAtLocation(x);
  const bound = sym && env.get(sym);
  if (!bound || bound.env.size || bound.expr.getSourceFile() !== ctx.sf || !call.arguments.includes(bound.expr)) return undefined;
  return bound.expr;
}

/** Where a read made elsewhere is: its function's name in this file, else its file's name. */
function readPlace(ctx: TsRuleContext, read: ts.CallExpression): string {
  const fn = functionOf(read);
  const name = fn && (ts.isFunctionDeclaration(fn) || ts.isMethodDeclaration(fn)) && fn.name ? fn.name.getText() : undefined;
  if (read.getSourceFile() === ctx.sf) return name ? `${name}()` : `line ${ctx.sf.getLineAndCharacterOfPosition(read.getStart()).line + 1}`;
  return path.basename(read.getSourceFile().fileName) + (name ? `, ${name}()` : "");
}

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

/** The properties of a read that name the entity rather than carry its data: written back, they write nothing read. */
const KEY_PROPERTIES = new Set(["partitionKey", "rowKey", "etag"]);

/** True when `node` uses the data of a read bound to `symbols` (not only its keys or ETag). */
function usesData(ctx: TsRuleContext, node: ts.Node, symbols: ReadonlySet<ts.Symbol>): boolean {
  let found = false;
  const visit = (n: ts.Node): void => {
    if (found) return;
    if (ts.isIdentifier(n) && !(ts.isPropertyAccessExpression(n.parent) && n.parent.name === n)) {
      const s = symbolAt(ctx, n);
      const keyOnly = ts.isPropertyAccessExpression(n.parent) && n.parent.expression === n && KEY_PROPERTIES.has(n.parent.name.text);
      if (s && symbols.has(s) && !keyOnly) found = true;
    }
    ts.forEachChild(n, visit);
  };
  visit(node);
  return found;
}

/**
 * True when the write is built from the read: its arguments use the read's data, directly or through
 * variables declared from it in between, or the read's result is changed in place between the two.
 */
function dependsOnRead(
  ctx: TsRuleContext,
  read: ts.CallExpression,
  write: ts.CallExpression,
  result: ReadonlySet<ts.Symbol>,
  entity?: ts.Node,
): boolean {
  const fn = functionOf(read);
  if (!fn || !result.size) return false;
  const derived = new Set(result);
  let mutated = false;
  const visit = (n: ts.Node): void => {
    if (mutated || n.getStart(ctx.sf) >= write.getStart(ctx.sf)) return;
    if (n.getStart(ctx.sf) > read.getEnd()) {
      if (ts.isVariableDeclaration(n) && n.initializer && usesData(ctx, n.initializer, derived))
        for (const s of boundSymbols(ctx, n)) derived.add(s);
      else if (changes(n) && usesData(ctx, target(n), derived)) mutated = true;
      // `if (owner.code !== code) return;`: the write happens only when what was read says so (a check, then an act).
      else if ((ts.isIfStatement(n) || ts.isWhileStatement(n)) && checksData(ctx, n.expression, derived, result)) mutated = true;
      else if (ts.isConditionalExpression(n) && checksData(ctx, n.condition, derived, result)) mutated = true;
    }
    ts.forEachChild(n, visit);
  };
  visit(fn);
  // The entity's object literal too, where it is built elsewhere (passed in through a parameter).
  return mutated || [...write.arguments, ...(entity ? [entity] : [])].some((a) => usesData(ctx, a, derived));
}

/**
 * True when a condition tests what was read, not only whether it was: a property of the read other than
 * its keys (`owner.code`), or a value derived from its data. `if (existing)` only tells whether it exists.
 */
function checksData(ctx: TsRuleContext, test: ts.Expression, derived: ReadonlySet<ts.Symbol>, result: ReadonlySet<ts.Symbol>): boolean {
  let found = false;
  const visit = (n: ts.Node): void => {
    if (found) return;
    if (ts.isIdentifier(n) && !(ts.isPropertyAccessExpression(n.parent) && n.parent.name === n)) {
      const s = symbolAt(ctx, n);
      if (s && derived.has(s)) {
        if (!result.has(s)) found = true;
        else if (ts.isElementAccessExpression(n.parent) && n.parent.expression === n) found = true;
        else if (ts.isPropertyAccessExpression(n.parent) && n.parent.expression === n && !KEY_PROPERTIES.has(n.parent.name.text))
          found = true;
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(test);
  return found;
}

/** An assignment, `++`/`--`, or `Object.assign(x, …)`: something written into an existing value. */
function changes(n: ts.Node): boolean {
  if (ts.isBinaryExpression(n))
    return n.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && n.operatorToken.kind <= ts.SyntaxKind.LastAssignment;
  if (ts.isPrefixUnaryExpression(n) || ts.isPostfixUnaryExpression(n))
    return n.operator === ts.SyntaxKind.PlusPlusToken || n.operator === ts.SyntaxKind.MinusMinusToken;
  return ts.isCallExpression(n) && n.expression.getText() === "Object.assign";
}

/** What a change writes into: the assignment's left side, the operand, or `Object.assign`'s first argument. */
function target(n: ts.Node): ts.Node {
  if (ts.isBinaryExpression(n)) return n.left;
  if (ts.isPrefixUnaryExpression(n) || ts.isPostfixUnaryExpression(n)) return n.operand;
  return (n as ts.CallExpression).arguments[0] ?? n;
}

/**
 * True when the read only decides whether (or how) to write: its result is not kept, or used only in
 * conditions (`if (existing)`, `existing ? … : …`, `!existing`) and for its keys.
 */
function onlyDecides(ctx: TsRuleContext, read: ts.CallExpression, result: ReadonlySet<ts.Symbol>): boolean {
  const fn = functionOf(read);
  if (!fn || !result.size) return true;
  let other = false;
  let references = 0;
  let decides = false;
  const visit = (n: ts.Node): void => {
    if (other) return;
    if (ts.isIdentifier(n) && n.getStart(ctx.sf) > read.getEnd()) {
      const s = ctx.checker.getSymbolAtLocation(n);
      if (s && result.has(s)) {
        references++;
        if (inCondition(n)) decides = true;
        else if (!(ts.isPropertyAccessExpression(n.parent) && KEY_PROPERTIES.has(n.parent.name.text))) other = true;
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(fn);
  // Kept only for its keys, the read decides nothing: the write would be the same without it.
  return !other && (references === 0 || decides);
}

/** True when a reference sits in a condition: an `if`/`while` test, a conditional's test, or under `!`. */
function inCondition(n: ts.Node): boolean {
  let c: ts.Node = n;
  for (let p = n.parent; p; c = p, p = p.parent) {
    if ((ts.isIfStatement(p) || ts.isWhileStatement(p)) && p.expression === c) return true;
    if (ts.isConditionalExpression(p) && p.condition === c) return true;
    if (ts.isPrefixUnaryExpression(p) && p.operator === ts.SyntaxKind.ExclamationToken) return true;
    if (ts.isStatement(p) || ts.isFunctionLike(p)) return false;
  }
  return false;
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
