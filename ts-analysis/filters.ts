/**
 * Resolves a `listEntities` filter expression into the OData texts the
 * service may receive, each piece remembering where in the file it came
 * from (so a parse error points inside the TypeScript string).
 *
 * Followed: string literals, template strings and concatenation, the
 * `odata` tag (its interpolations become quoted literals), constants and
 * `let`s assigned once, conditionals (each branch is one alternative),
 * `[…].join(sep)`, and helper functions' returns with their parameters
 * bound to the call's arguments. A run-time value inside quotes is a
 * value; a run-time string outside quotes is filter syntax nobody can see:
 * the filter is then "not known statically".
 */
import ts from "typescript";
import { KeyDecomposer, skipOuter } from "./key-parts";
import { Env, NO_ENV } from "./values";

/** A piece of filter text and where it comes from: exactly at `start` in the file, or somewhere in `node`. */
export interface Piece {
  text: string;
  node: ts.Node;
  /** File offset of the piece's first character when the source spells the text as it is (no escapes). */
  start?: number;
  /** A run-time value: its type and placeholder number (its text is set once its quoting is known). */
  value?: { type: ValueType; n: number };
  /** Sent quoted by the `odata` tag. */
  quoted?: boolean;
}

type ValueType = "number" | "bigint" | "boolean" | "date" | "string";

export type FilterResolution = { known: true; alternatives: Piece[][] } | { known: false; node: ts.Node };

const MAX_DEPTH = 10;
/** Conditionals multiply: past this many alternatives the filter counts as not known, not as an explosion. */
const MAX_ALTERNATIVES = 16;

type Alts = Piece[][] | undefined;

export class FilterResolver {
  /** Placeholder literals by the text of the run-time expression: the same expression gets the same value, different ones differ. */
  private readonly placeholders = new Map<string, number>();

  constructor(
    private readonly checker: ts.TypeChecker,
    private readonly decomposer: KeyDecomposer,
    private readonly sf: ts.SourceFile,
  ) {}

  resolve(expr: ts.Expression, env: Env = NO_ENV): FilterResolution {
    const alts = this.alts(expr, env, 0);
    if (!alts) return { known: false, node: expr };
    const texts: Piece[][] = [];
    for (const alt of alts) {
      const out = this.settleValues(alt);
      if (!out) return { known: false, node: expr };
      texts.push(out);
    }
    return { known: true, alternatives: texts };
  }

  /**
   * Run-time values become literals: inside quotes a distinct bare word, outside them a literal of
   * their type (the `odata` tag quotes strings itself); a string outside quotes is filter syntax
   * that cannot be seen, and the alternative is not known.
   */
  private settleValues(alt: Piece[]): Piece[] | undefined {
    const out: Piece[] = [];
    let quotes = 0;
    for (const [i, p] of alt.entries()) {
      if (!p.value) {
        out.push(p);
        for (const ch of p.text) if (ch === "'") quotes++;
        continue;
      }
      const { type, n } = p.value;
      let text: string;
      // Inside a typed literal's quotes (`datetime'…'`, `guid'…'`, `X'…'`) the value must spell that type.
      const typed = quotes % 2 === 1 ? /(datetime|guid|binary|X)'$/i.exec(out.map((o) => o.text).join(""))?.[1].toLowerCase() : undefined;
      if (typed === "datetime") text = "2026-01-01T00:00:00Z";
      else if (typed === "guid") text = "00000000-0000-0000-0000-000000000000";
      else if (typed) text = "00";
      else if (quotes % 2 === 1) text = `v${n}`;
      else if (type === "number") text = String(n);
      // `${x}L` spells an Int64 literal, whatever the checker calls x (untyped in JavaScript): digits, then the suffix.
      else if (/^L(?![\w'])/.test(alt[i + 1]?.text ?? "")) text = String(n);
      else if (type === "bigint") text = `${n}L`;
      else if (type === "boolean") text = "true";
      else if (type === "date") text = "datetime'2026-01-01T00:00:00Z'";
      else if (p.quoted) text = `'v${n}'`;
      else return undefined;
      out.push({ ...p, text });
    }
    return out;
  }

  private alts(e0: ts.Expression, env: Env, depth: number): Alts {
    const e = skipOuter(e0);
    if (depth > MAX_DEPTH) return undefined;
    this.decomposer.budget.tick();
    if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return [[this.literal(e, e.text)]];
    if (ts.isTaggedTemplateExpression(e) && ts.isIdentifier(e.tag) && e.tag.text === "odata") return [this.odata(e.template)];
    if (ts.isTemplateExpression(e)) {
      let acc: Alts = e.head.text ? [[this.literal(e.head, e.head.text)]] : [[]];
      for (const span of e.templateSpans) {
        acc = product(acc, this.alts(span.expression, env, depth + 1) ?? [[this.value(span.expression)]]);
        if (span.literal.text) acc = product(acc, [[this.literal(span.literal, span.literal.text)]]);
      }
      return acc;
    }
    if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.PlusToken) {
      const left = this.alts(e.left, env, depth + 1) ?? [[this.value(e.left)]];
      return product(left, this.alts(e.right, env, depth + 1) ?? [[this.value(e.right)]]);
    }
    if (ts.isConditionalExpression(e)) {
      const a = this.alts(e.whenTrue, env, depth + 1);
      const b = this.alts(e.whenFalse, env, depth + 1);
      return a && b && a.length + b.length <= MAX_ALTERNATIVES ? [...a, ...b] : undefined;
    }
    if (ts.isIdentifier(e) || ts.isPropertyAccessExpression(e)) return this.followed(e, env, depth);
    if (ts.isCallExpression(e)) return this.call(e, env, depth);
    return undefined;
  }

  private call(e: ts.CallExpression, env: Env, depth: number): Alts {
    if (ts.isPropertyAccessExpression(e.expression)) {
      const method = e.expression.name.text;
      const target = e.expression.expression;
      if (method === "join") return this.join(target, e.arguments[0], env, depth);
      if ((method === "trim" || method === "toString") && !e.arguments.length) return this.alts(target, env, depth + 1);
    }
    if (ts.isIdentifier(e.expression) && e.expression.text === "String" && e.arguments.length === 1)
      return this.alts(e.arguments[0], env, depth + 1);
    // A helper of the program: every return is an alternative, its parameters bound to this call's arguments.
    return this.followed(e, env, depth);
  }

  /**
   * A name, a property or a helper's call: the alternatives of each value it may hold (every write of a
   * `let`, both branches, each return). A value that cannot be followed (a parameter, input) is a
   * run-time value: undefined here, a placeholder for the caller.
   */
  private followed(e: ts.Expression, env: Env, depth: number): Alts {
    const out: Piece[][] = [];
    for (const v of this.decomposer.values.values(e, env)) {
      if (v.kind !== "expr" || v.expr === e || v.written) return undefined;
      const a = this.alts(v.expr, v.env, depth + 1);
      if (!a || out.length + a.length > MAX_ALTERNATIVES) return undefined;
      out.push(...a);
    }
    return out.length ? out : undefined;
  }

  /** `[a, b, c].join(" and ")` of an array whose elements are all known (and never pushed to). */
  private join(target: ts.Expression, sepArg: ts.Expression | undefined, env: Env, depth: number): Alts {
    let arr = skipOuter(target);
    if (ts.isIdentifier(arr)) {
      const init = this.decomposer.constInitializer(arr);
      const sym = this.checker.getSymbolAtLocation(arr);
      const facts = this.decomposer.facts(arr);
      if (!init || facts.isMutated(sym) || facts.pushes(sym).length) return undefined;
      arr = skipOuter(init);
    }
    if (!ts.isArrayLiteralExpression(arr)) return undefined;
    const sep = sepArg ? this.alts(sepArg, env, depth + 1) : [[{ text: ",", node: target }]];
    if (!sep || sep.length !== 1) return undefined;
    let acc: Alts = [[]];
    arr.elements.forEach((el, i) => {
      if (!acc) return;
      if (ts.isSpreadElement(el)) {
        acc = undefined;
        return;
      }
      if (i > 0) acc = product(acc, sep);
      acc = acc && product(acc, this.alts(el, env, depth + 1) ?? [[this.value(el)]]);
    });
    return acc;
  }

  /** The `odata` tag: each interpolation is sent as a literal of its type. */
  private odata(tpl: ts.TemplateLiteral): Piece[] {
    if (ts.isNoSubstitutionTemplateLiteral(tpl)) return [this.literal(tpl, tpl.text)];
    const out: Piece[] = [this.literal(tpl.head, tpl.head.text)];
    for (const span of tpl.templateSpans) {
      out.push({ ...this.value(span.expression), quoted: true });
      out.push(this.literal(span.literal, span.literal.text));
    }
    return out;
  }

  private literal(node: ts.Node, text: string): Piece {
    const src = node.getText(this.sf);
    // The text starts after the opening quote, backtick or `}` and sits there verbatim when the source has no escapes.
    const inner = ts.isTemplateHead(node) || ts.isTemplateMiddle(node) ? src.slice(1, -2) : src.slice(1, -1);
    return { text, node, ...(inner === text ? { start: node.getStart(this.sf) + 1 } : {}) };
  }

  /** A run-time value: its type and a placeholder number (the same expression text gets the same number). */
  private value(e: ts.Expression): Piece {
    const t = this.checker.getTypeAtLocation(e);
    const type: ValueType =
      t.flags & ts.TypeFlags.NumberLike
        ? "number"
        : t.flags & ts.TypeFlags.BigIntLike
          ? "bigint"
          : t.flags & ts.TypeFlags.BooleanLike
            ? "boolean"
            : t.getSymbol()?.getName() === "Date"
              ? "date"
              : "string";
    const key = e.getText(this.sf);
    let n = this.placeholders.get(key);
    if (n === undefined) this.placeholders.set(key, (n = this.placeholders.size + 1));
    return { text: "", node: e, value: { type, n } };
  }
}

function product(a: Alts, b: Alts): Alts {
  if (!a || !b || a.length * b.length > MAX_ALTERNATIVES) return undefined;
  const out: Piece[][] = [];
  for (const x of a) for (const y of b) out.push([...x, ...y]);
  return out;
}

/** The text of one alternative. */
export function textOf(pieces: readonly Piece[]): string {
  return pieces.map((p) => p.text).join("");
}
