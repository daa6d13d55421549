/**
 * A transaction's partition keys as values, so that two actions' keys can be
 * compared: literal text, and references to variables (`from`, `order.id`)
 * followed through `const`s to where the value comes from. Two different
 * references are two partitions unless the code shows them equal (a guard
 * that leaves when they differ).
 */
import ts from "typescript";
import { KeyDecomposer, skipOuter, TsKeyPart } from "./key-parts";

const MAX_DEPTH = 6;

/** A key as a value: `id` compares (equal ids, equal keys), `shown` names it in a message. */
export interface PartitionRef {
  id: string;
  shown: string;
}

export class PartitionRefs {
  private readonly symbols = new Map<ts.Symbol, number>();

  constructor(private readonly ctx: { checker: ts.TypeChecker; decomposer: KeyDecomposer }) {}

  /** The key of `expr` (decomposed into `parts`) as a value; undefined when a part is neither text nor a plain reference. */
  of(expr: ts.Expression, parts: readonly TsKeyPart[]): PartitionRef | undefined {
    if (!parts.length) return undefined;
    const ids: string[] = [];
    for (const p of parts) {
      if (p.kind === "literal") ids.push(JSON.stringify(p.text ?? ""));
      else if (p.kind === "value" && p.literals?.length === 1) ids.push(JSON.stringify(p.literals[0]));
      else if (p.kind === "value") {
        const ref = this.reference(p.node as ts.Expression, 0);
        if (!ref) return undefined;
        ids.push(ref);
      } else return undefined;
    }
    const literal = ids.every((i) => i.startsWith('"'));
    const id = literal ? JSON.stringify(ids.map((i) => JSON.parse(i) as string).join("")) : ids.join("+");
    return { id, shown: literal ? id : expr.getText() };
  }

  /**
   * True when the function around `at` leaves unless two of the references are equal:
   * `if (a !== b) throw …` (or `return`) before it.
   */
  shownEqual(ids: readonly string[], at: ts.Node): boolean {
    let fn: ts.Node | undefined = at.parent;
    while (fn && !ts.isFunctionLike(fn)) fn = fn.parent;
    if (!fn) return false;
    let equal = false;
    const visit = (n: ts.Node): void => {
      if (equal || n.getStart() >= at.getStart()) return;
      if (ts.isIfStatement(n) && leaves(n.thenStatement)) {
        const c = skipOuter(n.expression);
        const op = ts.isBinaryExpression(c) ? c.operatorToken.kind : undefined;
        if (
          ts.isBinaryExpression(c) &&
          (op === ts.SyntaxKind.ExclamationEqualsEqualsToken || op === ts.SyntaxKind.ExclamationEqualsToken)
        ) {
          const a = this.reference(c.left, 0);
          const b = this.reference(c.right, 0);
          if (a && b && a !== b && ids.includes(a) && ids.includes(b)) equal = true;
        }
      }
      ts.forEachChild(n, visit);
    };
    visit(fn);
    return equal;
  }

  /** `name` or `a.b.c`, followed through `const` initializers to the value they hold. */
  private reference(e: ts.Expression, depth: number): string | undefined {
    const x = skipOuter(e);
    if (depth > MAX_DEPTH) return undefined;
    if (ts.isIdentifier(x)) {
      const init = this.ctx.decomposer.constInitializer(x);
      if (init && (ts.isIdentifier(skipOuter(init)) || ts.isPropertyAccessExpression(skipOuter(init))))
        return this.reference(init, depth + 1);
      const sym = this.ctx.checker.getSymbolAtLocation(x);
      if (!sym) return undefined;
      let n = this.symbols.get(sym);
      if (n === undefined) this.symbols.set(sym, (n = this.symbols.size));
      return `#${n}`;
    }
    if (ts.isPropertyAccessExpression(x)) {
      const base = this.reference(x.expression, depth + 1);
      return base && `${base}.${x.name.text}`;
    }
    return undefined;
  }
}

/** A statement that always leaves the function: `throw`, `return`, or a block ending in one. */
function leaves(s: ts.Statement): boolean {
  if (ts.isThrowStatement(s) || ts.isReturnStatement(s)) return true;
  return ts.isBlock(s) && s.statements.length > 0 && leaves(s.statements[s.statements.length - 1]);
}
