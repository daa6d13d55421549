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
import { EntityReader } from "./entities";
import type { EntityWrite, FileUsage, ListOption, TransactionCall } from "./usage";
import { Wrappers } from "./summaries";
import { Env, NO_ENV } from "./values";
import { ClientOrigins, TableSource } from "./clients";
import { KeyDecomposer, skipOuter } from "./key-parts";
import { CLIENT_METHODS, importsSdk, isSdkFile, sdkKindOf, SdkKind, WRITE_METHODS } from "./sdk";
import { sdkShape, UntypedClients } from "./untyped";
import { MethodCall } from "./facts";

export type { EntityWrite, FileUsage, KeyedCall, ListCall, ListOption, TransactionCall } from "./usage";

export class UsageFinder {
  readonly decomposer: KeyDecomposer;
  readonly entities: EntityReader;
  private readonly origins: ClientOrigins;
  private readonly untyped: UntypedClients;
  private readonly importsSdk: boolean;
  private readonly actions: ActionFinder;

  /**
   * @param wrappers the program's functions that write through a parameter: a call of one of them is a
   *   write at the call, with its arguments (none: only the SDK's own calls are seen).
   */
  constructor(
    private readonly checker: ts.TypeChecker,
    private readonly sf: ts.SourceFile,
    decomposer?: KeyDecomposer,
    private readonly wrappers?: Wrappers,
    /** The project depends on the SDK (its types resolve): a client typed `any` is named even in a file that does not import it. */
    private readonly sdkInProject = false,
  ) {
    this.decomposer = decomposer ?? new KeyDecomposer(checker);
    this.origins = new ClientOrigins(checker, this.decomposer);
    this.entities = new EntityReader(checker, this.decomposer.values);
    this.untyped = new UntypedClients(checker, this.decomposer.values);
    this.importsSdk = importsSdk(sf);
    this.actions = new ActionFinder(checker, this.decomposer, this.decomposer.budget);
  }

  /** Every SDK call of the file, in source order; when the time budget runs out, those found so far. */
  find(): FileUsage {
    const usage: FileUsage = { writes: [], keyed: [], lists: [], transactions: [], untyped: [], recognised: [] };
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
        } else if (ts.isCallExpression(n) && n.arguments.length && this.wrappers) this.throughHelper(n, n, NO_ENV, usage, 0);
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
    let kind = this.kindOf(callee);
    if (!kind) {
      // A client method called on something typed `any`, in a file that imports the SDK or a project that depends on it:
      // recognised by the SDK's call shape, or said (a call the analysis cannot see), never skipped silently.
      const any = (this.checker.getTypeAtLocation(callee.expression).flags & ts.TypeFlags.Any) !== 0;
      if (!any || !(this.importsSdk || this.sdkInProject) || this.untyped.madeElse(callee.expression)) return;
      const shape = sdkShape(this.checker, call, method, this.decomposer.values);
      if (!shape) {
        usage.untyped.push({ call, why: this.untyped.why(callee.expression) });
        return;
      }
      usage.recognised.push({ call, how: shape });
      kind = "client";
    }
    const [first, second] = call.arguments;
    if (kind === "transaction") {
      const sym = this.checker.getSymbolAtLocation(skipOuter(callee.expression));
      if (sym && WRITE_METHODS.has(method) && first) {
        const list = txWrites.get(sym) ?? [];
        list.push(...this.entities.writes(call, call, method, first));
        txWrites.set(sym, list);
      }
      return;
    }
    const table = this.tableOfReceiver(callee.expression, kind);
    const source = table === undefined ? this.origins.tableSource(callee.expression) : undefined;
    if (WRITE_METHODS.has(method) && first)
      usage.writes.push(
        ...this.entities.writes(call, call, method, first).map((w) => ({ ...w, table, ...(source ? { tableSource: source } : {}) })),
      );
    else if ((method === "getEntity" || method === "deleteEntity") && first && second) {
      usage.keyed.push({ call, method, partitionKey: first, rowKey: second, table });
    } else if (method === "listEntities") usage.lists.push({ call, options: this.optionsOf(first), table });
    else if (method === "submitTransaction" && first) usage.transactions.push(this.transaction(call, first, txWrites, table, source));
  }

  /**
   * A call of a function that writes through its parameters: its writes, made at `site` (the call in
   * this file) with the arguments bound; the functions it passes them on to, likewise (three levels).
   */
  private throughHelper(call: ts.CallExpression, site: ts.CallExpression, env: Env, usage: FileUsage, depth: number): void {
    const wrappers = this.wrappers!;
    const decl = wrappers.callee(call);
    const summary = decl && wrappers.summary(decl, this.decomposer.budget);
    if (!decl || !summary || depth > 2) return;
    // A helper calling itself (or the site inside the helper) adds nothing the helper's own writes do not say.
    if (site.pos >= decl.pos && site.end <= decl.end && site.getSourceFile() === decl.getSourceFile()) return;
    const bound = this.decomposer.values.bind(call, env, decl);
    for (const w of summary.writes) {
      const receiver = w.call.expression.expression;
      if (!this.isClient(w.call, bound)) continue;
      const table = this.origins.tableName(receiver, bound);
      const source = table === undefined ? this.origins.tableSource(receiver, bound) : undefined;
      for (const x of this.entities.writes(site, w.call, w.method, w.entity, bound))
        if (this.fromCall(x, summary.decl)) usage.writes.push({ ...x, table, ...(source ? { tableSource: source } : {}) });
    }
    for (const f of summary.forwards) this.throughHelper(f.call, site, bound, usage, depth + 1);
  }

  /**
   * The write made through a helper depends on this call: its entity, a key or a part of one comes from
   * the arguments. One built wholly inside the helper is the helper's own finding, not one per caller.
   */
  private fromCall(w: EntityWrite, helper: ts.Node): boolean {
    const outside = (n: ts.Node | undefined) =>
      !!n && !(n.getSourceFile() === helper.getSourceFile() && n.pos >= helper.pos && n.end <= helper.end);
    if (outside(w.object) || outside(w.partitionKey) || outside(w.rowKey)) return true;
    // `save(name, entity)` given an entity read elsewhere: the helper writes back what the caller passes.
    const entity = skipOuter(w.entity);
    const passed = ts.isIdentifier(entity) ? w.env?.get(this.checker.getSymbolAtLocation(entity)!) : undefined;
    if (passed && outside(passed.expr)) return true;
    const parts = [
      ...(w.partitionKey ? this.decomposer.parts(w.partitionKey, 0, w.partitionKeyEnv) : []),
      ...(w.rowKey ? this.decomposer.parts(w.rowKey, 0, w.rowKeyEnv) : []),
    ];
    return parts.some((p) => outside(p.node));
  }

  /**
   * The write inside a helper is the SDK's: its method resolves to the SDK's TableClient, or its
   * untyped receiver is a parameter the call binds to a client (typed, or made as one).
   */
  private isClient(call: MethodCall, env: Env): boolean {
    if (sdkKindOf(this.checker, call.expression.name) === "client") return true;
    const x = skipOuter(call.expression.expression);
    const bound = ts.isIdentifier(x) ? env.get(this.checker.getSymbolAtLocation(x)!) : undefined;
    if (!bound) return false;
    const arg = skipOuter(bound.expr);
    const type = this.checker.getTypeAtLocation(arg);
    const decl = type.getSymbol()?.declarations?.[0];
    if (type.getSymbol()?.getName() === "TableClient" && decl && isSdkFile(decl.getSourceFile())) return true;
    return this.origins.createdAs(arg) === "TableClient";
  }

  /** The table a client expression was made for, when its name is a literal somewhere on the way. */
  tableOf(receiver: ts.Expression): string | undefined {
    return this.origins.tableName(receiver);
  }

  /**
   * Which SDK class declares the called method: by the checker's types, or — for a receiver typed
   * `any` — by how it was made (followed through its values: a factory's branches, a cache, a default import).
   */
  private kindOf(callee: ts.PropertyAccessExpression): SdkKind | undefined {
    const typed = sdkKindOf(this.checker, callee.name);
    if (typed) return typed;
    const type = this.checker.getTypeAtLocation(callee.expression);
    if (!(type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown))) return undefined;
    const made = this.origins.createdAs(callee.expression);
    if (made === "TableClient") return "client";
    if (made === "TableTransaction") return "transaction";
    return this.untyped.kind(callee.expression);
  }

  /** The table of a client: named where it is made, or by every maker of an untyped one. */
  private tableOfReceiver(receiver: ts.Expression, kind: SdkKind): string | undefined {
    const named = this.origins.tableName(receiver);
    if (named || kind !== "client" || !(this.checker.getTypeAtLocation(receiver).flags & ts.TypeFlags.Any)) return named;
    const names = new Set(this.untyped.makers(receiver).map((m) => this.origins.tableName(m.expr, m.env)));
    return names.size === 1 ? [...names][0] : undefined;
  }

  /** A callback's parameter stands for the one argument the call in sight passes it (`((a) => …submitTransaction(a))(actions)`). */
  private passedIn(x: ts.Expression): ts.Expression {
    if (!ts.isIdentifier(x) || !ts.isParameter(this.checker.getSymbolAtLocation(x)?.valueDeclaration ?? x)) return x;
    const vals = this.decomposer.values.values(x);
    const one = vals.length === 1 && vals[0].kind === "expr" ? skipOuter(vals[0].expr) : undefined;
    return one && one !== x ? one : x;
  }

  /** `listEntities({ queryOptions: { filter } })`: each way the options may be, with its filter, none, or not known. */
  private optionsOf(options: ts.Expression | undefined): ListOption[] {
    const values = this.decomposer.values;
    const filters = values.property(values.property(values.values(options), "queryOptions"), "filter");
    return filters.map((f) =>
      f.kind === "absent"
        ? f.soft
          ? { soft: true }
          : {}
        : f.kind === "unknown"
          ? { unknown: f.why }
          : f.kind !== "expr" || f.written
            ? { unknown: "a filter not known statically" }
            : { filter: f.expr, env: f.env },
    );
  }

  private transaction(
    call: ts.CallExpression,
    arg: ts.Expression,
    txWrites: Map<ts.Symbol, EntityWrite[]>,
    table?: string,
    source?: TableSource,
  ): TransactionCall {
    const where = { table, ...(source ? { tableSource: source } : {}) };
    const x = this.passedIn(skipOuter(arg));
    // `tx.actions` of a TableTransaction.
    if (ts.isPropertyAccessExpression(x) && x.name.text === "actions") {
      const sym = this.checker.getSymbolAtLocation(skipOuter(x.expression));
      const writes = (sym && txWrites.get(sym)) ?? [];
      return {
        call,
        writes: writes.map((w) => ({ ...w, ...where, inTransaction: call })),
        ...this.actions.countTransactionCalls(sym, call),
      };
    }
    const found = this.actions.of(x);
    const writes = found.actions.flatMap((a) =>
      this.entities.writes(call, call, a.op, a.entity).map((w) => ({ ...w, ...where, inTransaction: call })),
    );
    return { call, writes, count: found.count, countAt: found.countAt, ...(found.countFilled ? { countFilled: true } : {}) };
  }
}
