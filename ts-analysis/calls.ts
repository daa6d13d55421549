/**
 * Finds what a file does with `@azure/data-tables`: entity writes and their
 * key expressions, point reads and deletes, `listEntities` filters, and
 * transactions. A call is the SDK's when the checker resolves its method to
 * the SDK's `TableClient` or `TableTransaction` (sdk.ts); when the SDK's
 * types do not resolve, an untyped receiver made as one still counts.
 */
import ts from "typescript";
import { ActionFinder } from "./actions";
import { Exhausted } from "./budget";
import { Env } from "./values";
import { ClientOrigins } from "./clients";
import { KeyDecomposer, skipOuter } from "./key-parts";
import { CLIENT_METHODS, sdkKindOf, SdkKind, WRITE_METHODS } from "./sdk";

export interface EntityWrite {
  call: ts.CallExpression;
  /** The SDK method, or the operation of a transaction action ("create", "upsert"…). */
  method: string;
  /** The expression passed as the entity. */
  entity: ts.Expression;
  /** The object literal that builds the entity, when it can be found. */
  object?: ts.ObjectLiteralExpression;
  partitionKey?: ts.Expression;
  rowKey?: ts.Expression;
  /** The partition key the entity's declared type fixes (`partitionKey: "VISITOR"`), when no expression builds it. */
  declaredPartitionKey?: string;
  /** The update mode argument's text ("Merge" or "Replace"), for updateEntity/upsertEntity. */
  mode?: string;
  /** The options argument (where an `etag` goes). */
  options?: ts.Expression;
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

/** One way a `listEntities` call may be made: with a filter, with none (every entity), or with options not known statically. */
export interface ListOption {
  /** The filter expression (evaluated where `env` binds the parameters); undefined when this way has no filter. */
  filter?: ts.Expression;
  env?: Env;
  /** The options come from outside what can be followed (a parameter, a spread): why. */
  unknown?: string;
}

export interface ListCall {
  call: ts.CallExpression;
  /** Each way the call may be made (the branches of a conditional, each element of an array walked…). */
  options: ListOption[];
  table?: string;
}

export interface TransactionCall {
  call: ts.CallExpression;
  /** The actions' entities, where known. */
  writes: EntityWrite[];
  /** Statically known number of actions (undefined when it depends on run time). */
  count?: number;
  /** Where the count comes from: the push or call in a loop that adds the most actions. */
  countAt?: ts.Node;
}

export interface FileUsage {
  writes: EntityWrite[];
  keyed: KeyedCall[];
  lists: ListCall[];
  transactions: TransactionCall[];
}

/** A property's value in an object literal; `unknown` when a spread that cannot be followed might set it. */
interface Lookup {
  value?: ts.Expression;
  unknown: boolean;
}

export class UsageFinder {
  readonly decomposer: KeyDecomposer;
  private readonly origins: ClientOrigins;
  private readonly actions: ActionFinder;

  constructor(
    private readonly checker: ts.TypeChecker,
    private readonly sf: ts.SourceFile,
    decomposer?: KeyDecomposer,
  ) {
    this.decomposer = decomposer ?? new KeyDecomposer(checker);
    this.origins = new ClientOrigins(checker, this.decomposer);
    this.actions = new ActionFinder(checker, this.decomposer, this.decomposer.budget);
  }

  /** Every SDK call of the file, in source order; when the time budget runs out, those found so far. */
  find(): FileUsage {
    const usage: FileUsage = { writes: [], keyed: [], lists: [], transactions: [] };
    const txWrites = new Map<ts.Symbol, EntityWrite[]>();
    const budget = this.decomposer.budget;
    // Walked with a stack of its own, in source order: a key of 5,000 concatenated parts is a tree 5,000 deep.
    const stack: ts.Node[] = [this.sf];
    const children: ts.Node[] = [];
    let at: ts.Node = this.sf;
    try {
      while (stack.length) {
        budget.tick();
        const n = (at = stack.pop()!);
        if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && CLIENT_METHODS.has(n.expression.name.text)) {
          this.onCall(n, n.expression, usage, txWrites);
        }
        ts.forEachChild(n, (c) => void children.push(c));
        while (children.length) stack.push(children.pop()!);
      }
    } catch (e) {
      if (!(e instanceof Exhausted)) throw e;
      const line = this.sf.getLineAndCharacterOfPosition(at.getStart(this.sf)).line + 1;
      budget.skip(`the SDK calls from line ${line} on`);
    }
    return usage;
  }

  private onCall(
    call: ts.CallExpression,
    callee: ts.PropertyAccessExpression,
    usage: FileUsage,
    txWrites: Map<ts.Symbol, EntityWrite[]>,
  ): void {
    const method = callee.name.text;
    const kind = this.kindOf(callee);
    if (!kind) return;
    const [first, second] = call.arguments;
    if (kind === "transaction") {
      const sym = this.checker.getSymbolAtLocation(skipOuter(callee.expression));
      if (sym && WRITE_METHODS.has(method) && first) {
        const list = txWrites.get(sym) ?? [];
        list.push(this.entityWrite(call, method, first));
        txWrites.set(sym, list);
      }
      return;
    }
    const table = this.origins.tableName(callee.expression);
    if (WRITE_METHODS.has(method) && first) usage.writes.push({ ...this.entityWrite(call, method, first), table });
    else if ((method === "getEntity" || method === "deleteEntity") && first && second) {
      usage.keyed.push({ call, method, partitionKey: first, rowKey: second, table });
    } else if (method === "listEntities") usage.lists.push({ call, options: this.optionsOf(first), table });
    else if (method === "submitTransaction" && first) usage.transactions.push(this.transaction(call, first, txWrites, table));
  }

  /** Which SDK class declares the called method: by the checker's types, or by how an untyped receiver was made. */
  private kindOf(callee: ts.PropertyAccessExpression): SdkKind | undefined {
    const typed = sdkKindOf(this.checker, callee.name);
    if (typed) return typed;
    const type = this.checker.getTypeAtLocation(callee.expression);
    if (!(type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown))) return undefined;
    const made = this.origins.createdAs(callee.expression);
    return made === "TableClient" ? "client" : made === "TableTransaction" ? "transaction" : undefined;
  }

  /** Finds the entity object and its keys: a literal, a const, or what a helper function returns (spreads included). */
  entityWrite(call: ts.CallExpression, method: string, arg: ts.Expression): EntityWrite {
    const object = this.objectOf(arg, 0);
    const write: EntityWrite = { call, method, entity: arg, object };
    if (object) {
      write.partitionKey = this.lookup(object, "partitionKey", 0).value;
      write.rowKey = this.lookup(object, "rowKey", 0).value;
    }
    if (!write.partitionKey) write.declaredPartitionKey = this.declaredKey(arg);
    if (method === "updateEntity" || method === "upsertEntity") {
      const mode = call.arguments[1] && skipOuter(call.arguments[1]);
      write.mode = mode && ts.isStringLiteralLike(mode) ? mode.text : mode ? mode.getText(this.sf) : "Merge";
      write.options = call.arguments[2];
    }
    return write;
  }

  /** The partition key an entity's declared type fixes: a property typed as one string literal. */
  private declaredKey(arg: ts.Expression): string | undefined {
    const type = this.checker.getTypeAtLocation(arg);
    const prop = type.getProperty("partitionKey");
    if (!prop) return undefined;
    const t = this.checker.getTypeOfSymbolAtLocation(prop, arg);
    return t.isStringLiteral() ? t.value : undefined;
  }

  objectOf(e: ts.Expression, depth: number): ts.ObjectLiteralExpression | undefined {
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
  propertyValue(obj: ts.ObjectLiteralExpression, name: string): ts.Expression | undefined {
    return this.lookup(obj, name, 0).value;
  }

  private lookup(obj: ts.ObjectLiteralExpression, name: string, depth: number): Lookup {
    let found: Lookup = { unknown: false };
    for (const p of obj.properties) {
      if (ts.isPropertyAssignment(p) && propName(p.name) === name) found = { value: p.initializer, unknown: false };
      else if (ts.isShorthandPropertyAssignment(p) && p.name.text === name) found = { value: p.name, unknown: false };
      else if (ts.isSpreadAssignment(p)) {
        const inner = depth < 6 ? this.objectOf(p.expression, depth + 1) : undefined;
        if (!inner) {
          // A spread of something unknown may or may not set it; what it hides is unknown unless a later property sets it.
          if (!this.typeLacks(p.expression, name)) found = { value: found.value, unknown: true };
          continue;
        }
        const v = this.lookup(inner, name, depth + 1);
        if (v.value || v.unknown) found = v;
      }
    }
    return found;
  }

  /** True when the checker knows the expression's type has no such property (a spread that cannot set it). */
  private typeLacks(e: ts.Expression, name: string): boolean {
    const t = this.checker.getTypeAtLocation(e);
    if (t.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return false;
    return !t.getProperty(name);
  }

  /** `listEntities({ queryOptions: { filter } })`: each way the options may be, with its filter, none, or not known. */
  private optionsOf(options: ts.Expression | undefined): ListOption[] {
    const values = this.decomposer.values;
    const filters = values.property(values.property(values.values(options), "queryOptions"), "filter");
    return filters.map((f) =>
      f.kind === "absent"
        ? {}
        : f.kind === "unknown"
          ? { unknown: f.why }
          : f.written
            ? { unknown: "a filter changed after it was made" }
            : { filter: f.expr, env: f.env },
    );
  }

  private transaction(
    call: ts.CallExpression,
    arg: ts.Expression,
    txWrites: Map<ts.Symbol, EntityWrite[]>,
    table?: string,
  ): TransactionCall {
    const x = skipOuter(arg);
    // `tx.actions` of a TableTransaction.
    if (ts.isPropertyAccessExpression(x) && x.name.text === "actions") {
      const sym = this.checker.getSymbolAtLocation(skipOuter(x.expression));
      const writes = (sym && txWrites.get(sym)) ?? [];
      return { call, writes: writes.map((w) => ({ ...w, table, inTransaction: call })), ...this.actions.countTransactionCalls(sym, call) };
    }
    const found = this.actions.of(x);
    const writes = found.actions.map((a) => ({ ...this.entityWrite(call, a.op, a.entity), table, inTransaction: call }));
    return { call, writes, count: found.count, countAt: found.countAt };
  }
}

function propName(n: ts.PropertyName): string | undefined {
  return ts.isIdentifier(n) || ts.isStringLiteral(n) ? n.text : undefined;
}
