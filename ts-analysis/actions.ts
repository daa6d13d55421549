/**
 * The actions of a `submitTransaction` call, however the code builds them:
 * an array literal of `[op, entity]` tuples, spreads of other arrays,
 * `items.map((x) => [op, {…}])`, `actions.push([op, {…}])` (in loops too),
 * or a `TableTransaction`'s `tx.actions`. Each action's entity is found for
 * the key rules, and the number of actions is counted where it is static:
 * literal lengths times the iterations of loops with constant bounds.
 *
 * Linear by design: the pushes and calls on a variable come from the file's
 * facts (one walk), and each array's pushes and each loop's bound are
 * computed once and kept. A loop over the array being filled is unknown
 * (an in-progress marker), not endless.
 */
import ts from "typescript";
import { Budget } from "./budget";
import { enclosingLoops, FileFacts, MethodCall } from "./facts";
import { KeyDecomposer, skipOuter } from "./key-parts";

const MAX_DEPTH = 6;
const TX_METHODS = new Set(["createEntity", "updateEntity", "upsertEntity", "deleteEntity"]);

/** An action's entity expression and the operation named in its tuple. */
export interface FoundAction {
  op: string;
  entity: ts.Expression;
}

export interface FoundActions {
  actions: FoundAction[];
  /** Statically known number of actions (undefined when it depends on run time). */
  count?: number;
  /** The node that adds the most actions (a push in a loop, the array mapped): where the count comes from. */
  countAt?: ts.Node;
}

const PENDING = Symbol("pending");

export class ActionFinder {
  private readonly pushMemo = new Map<ts.Symbol, FoundActions | typeof PENDING>();
  private readonly boundMemo = new Map<ts.Node, number | undefined | typeof PENDING>();
  /** The node a loop's bound comes from, when it is not the loop itself: the push that fills the array the loop walks. */
  private readonly boundAt = new Map<ts.Node, ts.Node>();

  constructor(
    private readonly checker: ts.TypeChecker,
    private readonly decomposer: KeyDecomposer,
    private readonly budget: Budget,
  ) {}

  private facts(n: ts.Node): FileFacts {
    return FileFacts.of(this.checker, n.getSourceFile(), this.budget);
  }

  /** The actions an expression passed to `submitTransaction` holds. */
  of(arg: ts.Expression, depth = 0): FoundActions {
    this.budget.tick();
    const x = skipOuter(arg);
    if (depth > MAX_DEPTH) return { actions: [] };
    if (ts.isArrayLiteralExpression(x)) return this.ofLiteral(x, depth);
    if (ts.isIdentifier(x)) {
      const init = this.decomposer.constInitializer(x);
      const base = init ? this.of(init, depth + 1) : { actions: [] };
      const pushed = this.pushed(x);
      // An array that is only declared and never filled in sight is unknown, not empty.
      const count = init && base.count !== undefined && pushed.count !== undefined ? base.count + pushed.count : undefined;
      return { actions: [...base.actions, ...pushed.actions], count, countAt: pushed.countAt ?? base.countAt };
    }
    if (ts.isCallExpression(x) && ts.isPropertyAccessExpression(x.expression)) {
      const method = x.expression.name.text;
      if (method === "map" && x.arguments[0]) return this.ofMap(x.expression.expression, x.arguments[0]);
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
        const a = tuple(el);
        if (a) actions.push(a);
        counts.push(1);
      }
    }
    return { actions, count: sum(counts) };
  }

  /** `items.map((x) => [op, entity])`: one action per item; the entity from the callback's tuple. */
  private ofMap(items: ts.Expression, callback: ts.Expression): FoundActions {
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
    const actions = returned.map(tuple).filter((a): a is FoundAction => !!a);
    return { actions, count: this.length(items, 0), countAt: items };
  }

  /**
   * The static length of an array expression: a literal (spreads of known length included), or a
   * variable whose one value is a literal, plus what is pushed to it.
   */
  length(e: ts.Expression, depth = 0): number | undefined {
    const x = skipOuter(e);
    if (depth > MAX_DEPTH) return undefined;
    if (ts.isIdentifier(x)) {
      const init = this.decomposer.constInitializer(x);
      // Only an array literal has a length in sight: a call's result (a listing, a chunked array) does not.
      if (!init || !ts.isArrayLiteralExpression(skipOuter(init))) return undefined;
      if (this.facts(x).isMutated(this.checker.getSymbolAtLocation(x))) return undefined;
      const base = this.length(init, depth + 1);
      const pushed = this.pushed(x).count;
      return base === undefined || pushed === undefined ? undefined : base + pushed;
    }
    if (!ts.isArrayLiteralExpression(x)) return undefined;
    return sum(x.elements.map((el) => (ts.isSpreadElement(el) ? this.length(el.expression, depth + 1) : 1)));
  }

  /** `arr.push(a, b)` in the file: the actions pushed, and how many (loops with constant bounds multiply). Kept per array. */
  private pushed(id: ts.Identifier): FoundActions {
    const sym = this.checker.getSymbolAtLocation(id);
    if (!sym) return { actions: [], count: undefined };
    const known = this.pushMemo.get(sym);
    if (known === PENDING) return { actions: [], count: undefined };
    if (known) return known;
    this.pushMemo.set(sym, PENDING);
    const decl = sym.valueDeclaration;
    const actions: FoundAction[] = [];
    let count: number | undefined = 0;
    let most = 0;
    let countAt: ts.Node | undefined;
    const grow = (n: number | undefined, at: ts.Node) => {
      count = count === undefined || n === undefined ? undefined : count + n;
      if (n !== undefined && n > most) [most, countAt] = [n, this.origin(at, decl)];
    };
    for (const call of this.facts(id).pushes(sym)) {
      this.budget.tick();
      const filled = this.whileFilled(call, sym);
      const times = filled === undefined ? this.times(call, decl) : 1;
      for (const a of call.arguments) {
        if (ts.isSpreadElement(a)) {
          const inner = this.of(a.expression, 1);
          actions.push(...inner.actions);
          grow(inner.count === undefined ? undefined : times * inner.count, call);
        } else {
          const t = tuple(a);
          if (t) actions.push(t);
          grow(filled ?? times, call);
        }
      }
    }
    const found: FoundActions = { actions, count: count !== undefined && Number.isNaN(count) ? undefined : count, countAt };
    this.pushMemo.set(sym, found);
    return found;
  }

  /**
   * `while (arr.length < N) arr.push(x)`: the loop fills the array up to N (N + 1 with `<=`), whatever
   * was in it before. Undefined when the push is not the one push of such a loop.
   */
  private whileFilled(call: MethodCall, sym: ts.Symbol): number | undefined {
    const loop = enclosingLoops(call)[0];
    if (!loop || !ts.isWhileStatement(loop) || call.arguments.length !== 1) return undefined;
    const cond = skipOuter(loop.expression);
    if (!ts.isBinaryExpression(cond)) return undefined;
    const left = skipOuter(cond.left);
    if (!ts.isPropertyAccessExpression(left) || left.name.text !== "length") return undefined;
    if (this.checker.getSymbolAtLocation(skipOuter(left.expression)) !== sym) return undefined;
    const n = this.number(cond.right);
    if (n === undefined) return undefined;
    if (cond.operatorToken.kind === ts.SyntaxKind.LessThanToken) return n;
    if (cond.operatorToken.kind === ts.SyntaxKind.LessThanEqualsToken) return n + 1;
    return undefined;
  }

  /** How many times a node runs: the product of the bounds of the loops around it (NaN when one is unknown). */
  private times(n: ts.Node, scope?: ts.Node): number {
    let times = 1;
    for (const loop of enclosingLoops(n, scope)) times *= this.bound(loop) ?? NaN;
    return times;
  }

  /**
   * Where the number of runs of a node is set: the push that fills the array its widest loop walks (the
   * loop's bound comes from there), else the node itself.
   */
  private origin(n: ts.Node, scope?: ts.Node): ts.Node {
    let widest: { bound: number; at: ts.Node } | undefined;
    for (const loop of enclosingLoops(n, scope)) {
      const bound = this.bound(loop) ?? 0;
      const at = this.boundAt.get(loop);
      if (at && (!widest || bound > widest.bound)) widest = { bound, at };
    }
    return widest?.at ?? n;
  }

  /** A loop's iterations, computed once per loop. */
  private bound(loop: ts.IterationStatement | MethodCall): number | undefined {
    const known = this.boundMemo.get(loop);
    if (known === PENDING) return undefined;
    if (known !== undefined || this.boundMemo.has(loop)) return known;
    this.boundMemo.set(loop, PENDING);
    let bound: number | undefined;
    if (ts.isForStatement(loop)) bound = this.forBound(loop);
    else if (ts.isForOfStatement(loop)) {
      bound = this.length(loop.expression);
      const x = skipOuter(loop.expression);
      const filled = bound !== undefined && ts.isIdentifier(x) ? this.pushed(x).countAt : undefined;
      if (filled) this.boundAt.set(loop, filled);
    } else if (ts.isCallExpression(loop)) bound = this.length(loop.expression.expression);
    this.boundMemo.set(loop, bound);
    return bound;
  }

  /** Counts `tx.createEntity(…)`-style calls on a TableTransaction, times the iterations of the loops around them. */
  countTransactionCalls(sym: ts.Symbol | undefined, at: ts.Node): { count?: number; countAt?: ts.Node } {
    if (!sym) return {};
    let count = 0;
    let most = 0;
    let countAt: ts.Node | undefined;
    for (const call of this.facts(at).callsOn(sym)) {
      this.budget.tick();
      if (!TX_METHODS.has(call.expression.name.text)) continue;
      const times = this.times(call, sym.valueDeclaration);
      count += times;
      if (times > most) [most, countAt] = [times, this.origin(call, sym.valueDeclaration)];
    }
    return Number.isNaN(count) ? {} : { count, countAt };
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

/** `[op, entity, mode?]`. */
function tuple(e: ts.Expression): FoundAction | undefined {
  const t = skipOuter(e);
  if (!ts.isArrayLiteralExpression(t) || !t.elements[1]) return undefined;
  const op = skipOuter(t.elements[0]);
  return { op: ts.isStringLiteralLike(op) ? op.text : "action", entity: t.elements[1] };
}

function sum(xs: Array<number | undefined>): number | undefined {
  let total = 0;
  for (const x of xs) {
    if (x === undefined) return undefined;
    total += x;
  }
  return total;
}
