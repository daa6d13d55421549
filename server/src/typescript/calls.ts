/**
 * Finds what a file does with `@azure/data-tables`: entity writes and their
 * key expressions, point reads and deletes, `listEntities` filters, and
 * transactions — recognised through the type checker (the receiver is a
 * `TableClient` or `TableTransaction`), or syntactically when the SDK's
 * types cannot be resolved.
 */
import ts from "typescript";
import { KeyDecomposer, skipOuter } from "./key-parts";

export const SDK = "@azure/data-tables";
const WRITE_METHODS = new Set(["createEntity", "upsertEntity", "updateEntity"]);
const CLIENT_METHODS = new Set([...WRITE_METHODS, "deleteEntity", "getEntity", "listEntities", "submitTransaction"]);

export interface EntityWrite {
  call: ts.CallExpression;
  method: string;
  /** The object literal that builds the entity, when it can be found. */
  object?: ts.ObjectLiteralExpression;
  partitionKey?: ts.Expression;
  rowKey?: ts.Expression;
  /** The table the client was made for, when its name is a literal. */
  table?: string;
  /** Written through a TableTransaction or an actions array. */
  inTransaction?: ts.CallExpression;
}

export interface KeyedCall {
  call: ts.CallExpression;
  method: "getEntity" | "deleteEntity";
  partitionKey: ts.Expression;
  rowKey: ts.Expression;
  table?: string;
}

export interface ListCall {
  call: ts.CallExpression;
  /** The filter expression, or undefined when the call has none (every entity). */
  filter?: ts.Expression;
  table?: string;
}

export interface TransactionCall {
  call: ts.CallExpression;
  /** The actions' entities, where known. */
  writes: EntityWrite[];
  /** Statically known number of actions (undefined when it depends on run time). */
  count?: number;
}

export interface FileUsage {
  writes: EntityWrite[];
  keyed: KeyedCall[];
  lists: ListCall[];
  transactions: TransactionCall[];
}

/** True when the file imports or requires `@azure/data-tables`. */
export function importsSdk(sf: ts.SourceFile): boolean {
  for (const st of sf.statements) {
    if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier) && st.moduleSpecifier.text === SDK) return true;
  }
  return sf.text.includes(SDK) && /require\(\s*["']@azure\/data-tables["']\s*\)/.test(sf.text);
}

export class UsageFinder {
  private readonly decomposer: KeyDecomposer;

  constructor(private readonly checker: ts.TypeChecker, private readonly sf: ts.SourceFile) {
    this.decomposer = new KeyDecomposer(checker);
  }

  find(): FileUsage {
    const usage: FileUsage = { writes: [], keyed: [], lists: [], transactions: [] };
    const txWrites = new Map<ts.Symbol, EntityWrite[]>();
    const visit = (n: ts.Node): void => {
      if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression)) this.onCall(n, n.expression, usage, txWrites);
      ts.forEachChild(n, visit);
    };
    visit(this.sf);
    return usage;
  }

  private onCall(call: ts.CallExpression, callee: ts.PropertyAccessExpression, usage: FileUsage, txWrites: Map<ts.Symbol, EntityWrite[]>): void {
    const method = callee.name.text;
    const receiver = callee.expression;
    const kind = this.receiverKind(receiver);
    if (!kind || !CLIENT_METHODS.has(method) && !(kind === "transaction" && (WRITE_METHODS.has(method) || method === "deleteEntity"))) return;
    const table = kind === "client" ? this.tableName(receiver) : undefined;
    if (kind === "transaction") {
      const sym = this.checker.getSymbolAtLocation(skipOuter(receiver));
      if (sym && WRITE_METHODS.has(method) && call.arguments[0]) {
        const w = this.entityWrite(call, method, call.arguments[0]);
        const list = txWrites.get(sym) ?? [];
        list.push(w);
        txWrites.set(sym, list);
      }
      return;
    }
    if (WRITE_METHODS.has(method) && call.arguments[0]) usage.writes.push({ ...this.entityWrite(call, method, call.arguments[0]), table });
    else if ((method === "getEntity" || method === "deleteEntity") && call.arguments.length >= 2) {
      usage.keyed.push({ call, method, partitionKey: call.arguments[0], rowKey: call.arguments[1], table });
    } else if (method === "listEntities") usage.lists.push({ call, filter: this.filterOf(call.arguments[0]), table });
    else if (method === "submitTransaction" && call.arguments[0]) usage.transactions.push(this.transaction(call, call.arguments[0], txWrites, table));
  }

  /** What the receiver is: a TableClient, a TableTransaction, or neither. */
  private receiverKind(receiver: ts.Expression): "client" | "transaction" | undefined {
    const type = this.checker.getTypeAtLocation(receiver);
    const name = type.getSymbol()?.getName();
    if (name === "TableClient") return "client";
    if (name === "TableTransaction") return "transaction";
    // The SDK's types did not resolve: recognise the receiver by how it was made.
    if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) {
      const made = this.creation(receiver);
      if (made === "TableClient" || made === "TableTransaction") return made === "TableClient" ? "client" : "transaction";
    }
    return undefined;
  }

  /** `new TableClient(…)`, `TableClient.fromConnectionString(…)` or a declared type, for a receiver. */
  private creation(receiver: ts.Expression): string | undefined {
    const x = skipOuter(receiver);
    const sym = ts.isIdentifier(x) || ts.isPropertyAccessExpression(x) ? this.checker.getSymbolAtLocation(x) : undefined;
    const decl = sym?.valueDeclaration;
    if (!decl) return undefined;
    if ((ts.isVariableDeclaration(decl) || ts.isPropertyDeclaration(decl) || ts.isParameter(decl)) && decl.type && ts.isTypeReferenceNode(decl.type)) {
      return decl.type.typeName.getText();
    }
    const init = (ts.isVariableDeclaration(decl) || ts.isPropertyDeclaration(decl)) ? decl.initializer && skipOuter(decl.initializer) : undefined;
    if (!init) return undefined;
    const inner = ts.isAwaitExpression(init) ? skipOuter(init.expression) : init;
    if (ts.isNewExpression(inner) && ts.isIdentifier(inner.expression)) return inner.expression.text;
    if (ts.isCallExpression(inner) && ts.isPropertyAccessExpression(inner.expression) && ts.isIdentifier(inner.expression.expression)) {
      return inner.expression.expression.text;
    }
    return undefined;
  }

  /** The table name of `new TableClient(url, "Name", …)` / `TableClient.fromConnectionString(cs, "Name")`. */
  private tableName(receiver: ts.Expression): string | undefined {
    const x = skipOuter(receiver);
    const sym = ts.isIdentifier(x) || ts.isPropertyAccessExpression(x) ? this.checker.getSymbolAtLocation(x) : undefined;
    const decl = sym?.valueDeclaration;
    const init = decl && (ts.isVariableDeclaration(decl) || ts.isPropertyDeclaration(decl)) ? decl.initializer && skipOuter(decl.initializer) : undefined;
    if (!init) return undefined;
    const arg = ts.isNewExpression(init) ? init.arguments?.[1] : ts.isCallExpression(init) ? init.arguments[1] : undefined;
    const lit = arg && this.literalString(arg);
    return lit;
  }

  private literalString(e: ts.Expression): string | undefined {
    const parts = this.decomposer.parts(e);
    return parts.every((p) => p.kind === "literal") ? parts.map((p) => p.text).join("") : undefined;
  }

  /** Finds the entity object and its keys: a literal, a const, or what a helper function returns (spreads included). */
  entityWrite(call: ts.CallExpression, method: string, arg: ts.Expression): EntityWrite {
    const object = this.objectOf(arg, 0);
    const write: EntityWrite = { call, method, object };
    if (object) {
      write.partitionKey = this.propertyValue(object, "partitionKey", 0);
      write.rowKey = this.propertyValue(object, "rowKey", 0);
    }
    return write;
  }

  private objectOf(e: ts.Expression, depth: number): ts.ObjectLiteralExpression | undefined {
    if (depth > 6) return undefined;
    const x = skipOuter(e);
    if (ts.isObjectLiteralExpression(x)) return x;
    if (ts.isIdentifier(x)) {
      const init = this.decomposer.constInitializer(x);
      return init ? this.objectOf(init, depth + 1) : undefined;
    }
    if (ts.isCallExpression(x)) {
      const ret = this.decomposer.returnedExpression(x);
      return ret ? this.objectOf(ret, depth + 1) : undefined;
    }
    return undefined;
  }

  /** A property's value in an object literal, looking through spreads (later properties win). */
  propertyValue(obj: ts.ObjectLiteralExpression, name: string, depth: number): ts.Expression | undefined {
    let found: ts.Expression | undefined;
    for (const p of obj.properties) {
      if (ts.isPropertyAssignment(p) && propName(p.name) === name) found = p.initializer;
      else if (ts.isShorthandPropertyAssignment(p) && p.name.text === name) found = p.name;
      else if (ts.isSpreadAssignment(p) && depth < 6) {
        const inner = this.objectOf(p.expression, depth + 1);
        const v = inner && this.propertyValue(inner, name, depth + 1);
        if (v) found = v;
      }
    }
    return found;
  }

  /** `listEntities({ queryOptions: { filter } })`: the filter expression. */
  private filterOf(options: ts.Expression | undefined): ts.Expression | undefined {
    const obj = options && this.objectOf(options, 0);
    const qo = obj && this.propertyValue(obj, "queryOptions", 0);
    const qoObj = qo && this.objectOf(qo, 0);
    return qoObj && this.propertyValue(qoObj, "filter", 0);
  }

  private transaction(call: ts.CallExpression, arg: ts.Expression, txWrites: Map<ts.Symbol, EntityWrite[]>, table?: string): TransactionCall {
    const x = skipOuter(arg);
    // `tx.actions` of a TableTransaction.
    if (ts.isPropertyAccessExpression(x) && x.name.text === "actions") {
      const sym = this.checker.getSymbolAtLocation(skipOuter(x.expression));
      const writes = (sym && txWrites.get(sym)) ?? [];
      return { call, writes: writes.map((w) => ({ ...w, table, inTransaction: call })), count: this.countTxCalls(sym) };
    }
    const arr = ts.isIdentifier(x) ? this.decomposer.constInitializer(x) ?? x : x;
    const writes: EntityWrite[] = [];
    let count: number | undefined;
    if (ts.isArrayLiteralExpression(arr)) {
      count = arr.elements.length;
      for (const el of arr.elements) {
        const tuple = skipOuter(el);
        if (ts.isArrayLiteralExpression(tuple) && tuple.elements[1]) {
          writes.push({ ...this.entityWrite(call, "action", tuple.elements[1]), table, inTransaction: call });
        } else if (ts.isSpreadElement(el)) count = undefined;
      }
      if (ts.isIdentifier(x)) count = this.pushedCount(x, count);
    }
    return { call, writes, count };
  }

  /** Counts `tx.createEntity(…)`-style calls on a transaction: straight-line calls plus loops with literal bounds. */
  private countTxCalls(sym: ts.Symbol | undefined): number | undefined {
    if (!sym) return undefined;
    let count = 0;
    let unknown = false;
    const visit = (n: ts.Node, times: number): void => {
      if (ts.isForStatement(n)) {
        const bound = literalLoopBound(n);
        visit(n.statement, bound === undefined ? NaN : times * bound);
        return;
      }
      if ((ts.isForOfStatement(n) || ts.isForInStatement(n) || ts.isWhileStatement(n) || ts.isDoStatement(n))) {
        ts.forEachChild(n, (c) => visit(c, NaN));
        return;
      }
      if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && ["createEntity", "updateEntity", "upsertEntity", "deleteEntity"].includes(n.expression.name.text)) {
        if (this.checker.getSymbolAtLocation(skipOuter(n.expression.expression)) === sym) {
          if (Number.isNaN(times)) unknown = true;
          else count += times;
        }
      }
      ts.forEachChild(n, (c) => visit(c, times));
    };
    visit(this.sf, 1);
    return unknown ? undefined : count;
  }

  /** Adds `arr.push(…)` calls (in literal-bounded loops) to an array's literal length. */
  private pushedCount(id: ts.Identifier, base: number | undefined): number | undefined {
    const sym = this.checker.getSymbolAtLocation(id);
    if (base === undefined || !sym) return base;
    let count = base;
    let unknown = false;
    const visit = (n: ts.Node, times: number): void => {
      if (ts.isForStatement(n)) {
        const bound = literalLoopBound(n);
        ts.forEachChild(n, (c) => visit(c, bound === undefined ? NaN : times * bound));
        return;
      }
      if (ts.isForOfStatement(n) || ts.isWhileStatement(n) || ts.isDoStatement(n) || ts.isForInStatement(n)) {
        ts.forEachChild(n, (c) => visit(c, NaN));
        return;
      }
      if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && n.expression.name.text === "push" &&
        this.checker.getSymbolAtLocation(skipOuter(n.expression.expression)) === sym) {
        if (Number.isNaN(times)) unknown = true;
        else count += times * n.arguments.length;
      }
      ts.forEachChild(n, (c) => visit(c, times));
    };
    visit(this.sf, 1);
    return unknown ? undefined : count;
  }
}

function propName(n: ts.PropertyName): string | undefined {
  return ts.isIdentifier(n) || ts.isStringLiteral(n) ? n.text : undefined;
}

/** `for (let i = A; i < B; i++)` with literal A and B: B − A iterations. */
function literalLoopBound(n: ts.ForStatement): number | undefined {
  const init = n.initializer && ts.isVariableDeclarationList(n.initializer) ? n.initializer.declarations[0]?.initializer : undefined;
  const cond = n.condition;
  if (!init || !ts.isNumericLiteral(init) || !cond || !ts.isBinaryExpression(cond) || !ts.isNumericLiteral(cond.right)) return undefined;
  const lo = Number(init.text);
  const hi = Number(cond.right.text);
  if (cond.operatorToken.kind === ts.SyntaxKind.LessThanToken) return Math.max(0, hi - lo);
  if (cond.operatorToken.kind === ts.SyntaxKind.LessThanEqualsToken) return Math.max(0, hi - lo + 1);
  return undefined;
}
