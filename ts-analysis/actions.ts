/**
 * The actions of a `submitTransaction` call, however the code builds them:
 * an array literal of `[op, entity]` tuples, spreads of other arrays,
 * `items.map((x) => [op, {…}])`, `actions.push([op, {…}])` (in loops too),
 * or a `TableTransaction`'s `tx.actions`. Each action's entity is found for
 * the key rules, and the number of actions is counted where it is static:
 * literal lengths times the iterations of loops with constant bounds.
 */
import ts from "typescript";
import { KeyDecomposer, skipOuter } from "./key-parts";

const MAX_DEPTH = 6;

/** An action's entity expression and the operation named in its tuple. */
export interface FoundAction {
  op: string;
  entity: ts.Expression;
}

export interface FoundActions {
  actions: FoundAction[];
  /** Statically known number of actions (undefined when it depends on run time). */
  count?: number;
}

export class ActionFinder {
  /** Arrays whose pushes are being counted: a loop over the array itself (`for (const a of actions) actions.push(…)`) is unknown, not endless. */
  private readonly counting = new Set<ts.Symbol>();

  constructor(
    private readonly checker: ts.TypeChecker,
    private readonly decomposer: KeyDecomposer,
    private readonly sf: ts.SourceFile,
  ) {}

  /** The actions an expression passed to `submitTransaction` holds. */
  of(arg: ts.Expression, depth = 0): FoundActions {
    const x = skipOuter(arg);
    if (depth > MAX_DEPTH) return { actions: [] };
    if (ts.isArrayLiteralExpression(x)) return this.ofLiteral(x, depth);
    if (ts.isIdentifier(x)) {
      const init = this.decomposer.constInitializer(x);
      const base = init ? this.of(init, depth + 1) : { actions: [] };
      const pushed = this.pushed(x, depth + 1);
      // An array that is only declared and never filled in sight is unknown, not empty.
      const count = init && base.count !== undefined && pushed.count !== undefined ? base.count + pushed.count : undefined;
      return { actions: [...base.actions, ...pushed.actions], count };
    }
    if (ts.isCallExpression(x) && ts.isPropertyAccessExpression(x.expression)) {
      const method = x.expression.name.text;
      if (method === "map" && x.arguments[0]) return this.ofMap(x.expression.expression, x.arguments[0], depth);
      if (method === "slice" || method === "filter") return { actions: this.of(x.expression.expression, depth + 1).actions };
      if (method === "concat") {
        const all = [x.expression.expression, ...x.arguments].map((a) => this.of(a, depth + 1));
        return { actions: all.flatMap((a) => a.actions), count: sum(all.map((a) => a.count)) };
      }
    }
    return { actions: [] };
  }

  private ofLiteral(arr: ts.ArrayLiteralExpression, depth: number): FoundActions {
    const actions: FoundAction[] = [];
    const counts: Array<number | undefined> = [];
    for (const el of arr.elements) {
      if (ts.isSpreadElement(el)) {
        const inner = this.of(el.expression, depth + 1);
        actions.push(...inner.actions);
        counts.push(inner.count);
      } else {
        const a = this.tuple(el);
        if (a) actions.push(a);
        counts.push(1);
      }
    }
    return { actions, count: sum(counts) };
  }

  /** `[op, entity, mode?]`. */
  private tuple(e: ts.Expression): FoundAction | undefined {
    const t = skipOuter(e);
    if (!ts.isArrayLiteralExpression(t) || !t.elements[1]) return undefined;
    const op = skipOuter(t.elements[0]);
    return { op: ts.isStringLiteralLike(op) ? op.text : "action", entity: t.elements[1] };
  }

  /** `items.map((x) => [op, entity])`: one action per item; the entity from the callback's tuple. */
  private ofMap(items: ts.Expression, callback: ts.Expression, depth: number): FoundActions {
    const fn = skipOuter(callback);
    const returned: ts.Expression[] = [];
    if (ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) {
      if (!ts.isBlock(fn.body)) returned.push(fn.body);
      else {
        const visit = (n: ts.Node): void => {
          if (ts.isReturnStatement(n) && n.expression) returned.push(n.expression);
          else if (!ts.isFunctionLike(n)) ts.forEachChild(n, visit);
        };
        ts.forEachChild(fn.body, visit);
      }
    }
    const actions = returned.map((r) => this.tuple(r)).filter((a): a is FoundAction => !!a);
    return { actions, count: this.length(items, depth) };
  }

  /** The static length of an array expression: a literal (spreads of known length included) or a constant bound to one. */
  private length(e: ts.Expression, depth: number): number | undefined {
    const x = skipOuter(e);
    if (depth > MAX_DEPTH) return undefined;
    if (ts.isIdentifier(x)) {
      const init = this.decomposer.constInitializer(x);
      return init && this.pushed(x, depth + 1).count === 0 ? this.length(init, depth + 1) : undefined;
    }
    if (!ts.isArrayLiteralExpression(x)) return undefined;
    return sum(x.elements.map((el) => (ts.isSpreadElement(el) ? this.length(el.expression, depth + 1) : 1)));
  }

  /** `arr.push(a, b)` anywhere in the file: the actions pushed, and how many (loops with constant bounds multiply). */
  private pushed(id: ts.Identifier, depth: number): FoundActions {
    const sym = this.checker.getSymbolAtLocation(id);
    const actions: FoundAction[] = [];
    let count: number | undefined = 0;
    if (!sym || depth > MAX_DEPTH || this.counting.has(sym)) return { actions, count: undefined };
    this.counting.add(sym);
    try {
      this.collectPushes(sym, depth, actions, (c) => (count = count === undefined ? undefined : c(count)));
    } finally {
      this.counting.delete(sym);
    }
    return { actions, count: count !== undefined && Number.isNaN(count) ? undefined : count };
  }

  private collectPushes(
    sym: ts.Symbol,
    depth: number,
    actions: FoundAction[],
    add: (f: (count: number) => number | undefined) => void,
  ): void {
    this.eachCall(sym, (call, times) => {
      if (call.expression.name.text !== "push") return;
      for (const a of call.arguments) {
        if (ts.isSpreadElement(a)) {
          const inner = this.of(a.expression, depth + 1);
          actions.push(...inner.actions);
          add((c) => (inner.count === undefined ? undefined : c + times * inner.count));
        } else {
          const t = this.tuple(a);
          if (t) actions.push(t);
          add((c) => c + times);
        }
      }
    });
  }

  /** Counts `tx.createEntity(…)`-style calls on a TableTransaction, times the iterations of the loops around them. */
  countTransactionCalls(sym: ts.Symbol | undefined): number | undefined {
    if (!sym) return undefined;
    let count = 0;
    this.eachCall(sym, (call, times) => {
      if (["createEntity", "updateEntity", "upsertEntity", "deleteEntity"].includes(call.expression.name.text)) count += times;
    });
    return Number.isNaN(count) ? undefined : count;
  }

  /** Every method call on `sym` in the file, with how many times it runs (NaN inside a loop of unknown bound). */
  private eachCall(
    sym: ts.Symbol,
    fn: (call: ts.CallExpression & { expression: ts.PropertyAccessExpression }, times: number) => void,
  ): void {
    const visit = (n: ts.Node, times: number): void => {
      if (ts.isForStatement(n)) {
        const bound = this.forBound(n);
        ts.forEachChild(n, (c) => visit(c, c === n.statement ? times * (bound ?? NaN) : times));
        return;
      }
      if (ts.isForOfStatement(n)) {
        const bound = this.length(n.expression, MAX_DEPTH - 1);
        ts.forEachChild(n, (c) => visit(c, c === n.statement ? times * (bound ?? NaN) : times));
        return;
      }
      if (ts.isForInStatement(n) || ts.isWhileStatement(n) || ts.isDoStatement(n)) {
        ts.forEachChild(n, (c) => visit(c, NaN));
        return;
      }
      if (
        ts.isCallExpression(n) &&
        ts.isPropertyAccessExpression(n.expression) &&
        this.checker.getSymbolAtLocation(skipOuter(n.expression.expression)) === sym
      ) {
        fn(n as ts.CallExpression & { expression: ts.PropertyAccessExpression }, times);
      }
      ts.forEachChild(n, (c) => visit(c, times));
    };
    visit(this.sf, 1);
  }

  /** `for (let i = A; i < B; i++)` (or `<=`) with A and B known numbers (literals or constants): its iterations. */
  private forBound(n: ts.ForStatement): number | undefined {
    const init = n.initializer && ts.isVariableDeclarationList(n.initializer) ? n.initializer.declarations[0]?.initializer : undefined;
    const cond = n.condition;
    if (!init || !cond || !ts.isBinaryExpression(cond)) return undefined;
    const lo = this.number(init);
    const hi = this.number(cond.right);
    if (lo === undefined || hi === undefined) return undefined;
    if (cond.operatorToken.kind === ts.SyntaxKind.LessThanToken) return Math.max(0, hi - lo);
    if (cond.operatorToken.kind === ts.SyntaxKind.LessThanEqualsToken) return Math.max(0, hi - lo + 1);
    return undefined;
  }

  private number(e: ts.Expression): number | undefined {
    const x = skipOuter(e);
    if (ts.isNumericLiteral(x)) return Number(x.text);
    if (ts.isIdentifier(x)) {
      const init = this.decomposer.constInitializer(x);
      return init && ts.isNumericLiteral(skipOuter(init)) ? Number((skipOuter(init) as ts.NumericLiteral).text) : undefined;
    }
    return undefined;
  }
}

function sum(xs: Array<number | undefined>): number | undefined {
  let total = 0;
  for (const x of xs) {
    if (x === undefined) return undefined;
    total += x;
  }
  return total;
}
