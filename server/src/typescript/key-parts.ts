/**
 * Decomposes a TypeScript key expression into parts — literal text, values
 * of a known type, zero-padded numbers, hash digests, clock readings,
 * time-ordered ids, counters — following local constants and helper
 * functions, with types from the checker.
 */
import ts from "typescript";

export type TsPartKind = "literal" | "value" | "padded" | "hash" | "clock" | "time-id" | "counter";

export interface TsKeyPart {
  kind: TsPartKind;
  /** The node in the file the part comes from (a literal, an interpolated expression…). */
  node: ts.Node;
  /** Literal text, for `literal` parts. */
  text?: string;
  /** The value's type, for `value` parts. */
  type?: "number" | "string" | "boolean" | "other";
  /** Known fixed width (padStart of a value that fits, slice of a digest, a literal). */
  width?: number;
  /** Values a string-literal union type allows (its alphabet is then known). */
  literals?: string[];
  /** A name for the value, from the expression (`order.bib` → "bib"). */
  name?: string;
}

const CLOCK_CALLS = new Set(["Date.now", "performance.now", "process.hrtime.bigint"]);
const TIME_ID_CALLS = new Set(["ulid", "monotonicFactory", "uuidv7", "v7", "uuidV7", "ulidx", "ksuid"]);
const MAX_DEPTH = 8;

export class KeyDecomposer {
  constructor(private readonly checker: ts.TypeChecker) {}

  /** The parts of a key expression, in order. */
  parts(expr: ts.Expression, depth = 0): TsKeyPart[] {
    const e = skipOuter(expr);
    if (depth > MAX_DEPTH) return [this.value(e)];
    if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return [{ kind: "literal", node: e, text: e.text, width: e.text.length }];
    if (ts.isNumericLiteral(e)) return [{ kind: "literal", node: e, text: e.text, width: e.text.length }];
    if (ts.isTemplateExpression(e)) {
      const out: TsKeyPart[] = [];
      if (e.head.text) out.push({ kind: "literal", node: e.head, text: e.head.text, width: e.head.text.length });
      for (const span of e.templateSpans) {
        out.push(...this.parts(span.expression, depth + 1));
        if (span.literal.text) out.push({ kind: "literal", node: span.literal, text: span.literal.text, width: span.literal.text.length });
      }
      return out;
    }
    if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.PlusToken && this.isStringy(e)) {
      return [...this.parts(e.left, depth + 1), ...this.parts(e.right, depth + 1)];
    }
    if (ts.isPostfixUnaryExpression(e) || ts.isPrefixUnaryExpression(e)) {
      const op = e.operator;
      if (op === ts.SyntaxKind.PlusPlusToken || op === ts.SyntaxKind.MinusMinusToken) return [{ kind: "counter", node: e, name: nameOf(e.operand) }];
    }
    if (ts.isIdentifier(e)) {
      const init = this.constInitializer(e);
      if (init) return this.parts(init, depth + 1).map((p) => (p.kind === "value" ? { ...p, node: e } : p));
      return [this.value(e)];
    }
    if (ts.isCallExpression(e) || ts.isNewExpression(e)) return this.callParts(e, depth);
    return [this.value(e)];
  }

  private callParts(e: ts.CallExpression | ts.NewExpression, depth: number): TsKeyPart[] {
    const callee = ts.isCallExpression(e) ? calleeName(e.expression) : "";
    if (ts.isNewExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === "Date" && !e.arguments?.length) {
      return [{ kind: "clock", node: e }];
    }
    if (!ts.isCallExpression(e)) return [this.value(e)];
    if (CLOCK_CALLS.has(callee)) return [{ kind: "clock", node: e }];
    if (TIME_ID_CALLS.has(callee.split(".").pop() ?? "")) return [{ kind: "time-id", node: e }];
    if (callee === "String" && e.arguments.length === 1) return this.parts(e.arguments[0], depth + 1).map((p) => ({ ...p, node: p.kind === "value" ? e : p.node }));
    if (ts.isPropertyAccessExpression(e.expression)) {
      const method = e.expression.name.text;
      const target = e.expression.expression;
      if (method === "toString" && !e.arguments.length) return this.parts(target, depth + 1).map((p) => ({ ...p, node: p.kind === "value" ? e : p.node }));
      if (method === "padStart" || method === "padEnd") {
        const width = e.arguments[0] && ts.isNumericLiteral(e.arguments[0]) ? Number(e.arguments[0].text) : undefined;
        const inner = this.parts(target, depth + 1);
        const monotonic = inner.find((p) => p.kind === "clock" || p.kind === "counter" || p.kind === "time-id");
        return [monotonic ? { ...monotonic, node: e, width } : { kind: "padded", node: e, width, name: inner[0]?.name }];
      }
      if ((method === "slice" || method === "substring" || method === "substr") && isDigest(target)) {
        const [a, b] = e.arguments;
        const width = a && b && ts.isNumericLiteral(a) && ts.isNumericLiteral(b) ? Number(b.text) - Number(a.text) : undefined;
        return [{ kind: "hash", node: e, width }];
      }
      if (method === "digest") return [{ kind: "hash", node: e }];
      if (["toISOString", "toJSON", "getTime", "valueOf", "toUTCString"].includes(method)) {
        const inner = this.parts(target, depth + 1);
        if (inner.some((p) => p.kind === "clock")) return [{ kind: "clock", node: e }];
        if (method === "toISOString" || method === "toJSON") return [{ kind: "value", node: e, type: "string", width: 24, name: nameOf(target) }];
      }
      if (["toLowerCase", "toUpperCase", "trim"].includes(method)) return this.parts(target, depth + 1);
    }
    // A helper function of the program: follow its single returned expression.
    const returned = this.returnedExpression(e);
    if (returned) return this.parts(returned, depth + 1);
    return [this.value(e)];
  }

  /** A value part with its type from the checker. */
  value(e: ts.Expression): TsKeyPart {
    const type = this.checker.getTypeAtLocation(e);
    const literals = stringLiterals(type);
    return { kind: "value", node: e, type: typeKind(type), ...(literals ? { literals } : {}), name: nameOf(e) };
  }

  private isStringy(e: ts.BinaryExpression): boolean {
    const t = this.checker.getTypeAtLocation(e);
    return (t.flags & ts.TypeFlags.StringLike) !== 0 || (t.flags & ts.TypeFlags.Any) !== 0 ||
      [e.left, e.right].some((s) => ts.isStringLiteralLike(skipOuter(s)) || ts.isTemplateExpression(skipOuter(s)));
  }

  /** The initializer of a `const` (or never-reassigned `let`) declared in this program. */
  constInitializer(id: ts.Identifier): ts.Expression | undefined {
    const sym = this.checker.getSymbolAtLocation(id);
    const decl = sym?.valueDeclaration;
    if (!decl || !ts.isVariableDeclaration(decl) || !decl.initializer) return undefined;
    const isConst = (ts.getCombinedNodeFlags(decl) & ts.NodeFlags.Const) !== 0;
    return isConst ? decl.initializer : undefined;
  }

  /** The expression a called function returns, when it has a single `return` (or is an arrow with an expression body). */
  returnedExpression(call: ts.CallExpression): ts.Expression | undefined {
    const sig = this.checker.getResolvedSignature(call);
    const decl = sig?.declaration;
    if (!decl || decl.getSourceFile().isDeclarationFile) return undefined;
    if ((ts.isArrowFunction(decl) || ts.isFunctionExpression(decl)) && decl.body && !ts.isBlock(decl.body)) return decl.body;
    const body = (decl as ts.FunctionLikeDeclaration).body;
    if (!body || !ts.isBlock(body)) return undefined;
    const returns: ts.ReturnStatement[] = [];
    const visit = (n: ts.Node) => {
      if (ts.isReturnStatement(n)) returns.push(n);
      else if (!ts.isFunctionLike(n)) ts.forEachChild(n, visit);
    };
    ts.forEachChild(body, visit);
    return returns.length === 1 ? returns[0].expression : undefined;
  }
}

export function skipOuter(e: ts.Expression): ts.Expression {
  let x = e;
  while (ts.isParenthesizedExpression(x) || ts.isAsExpression(x) || ts.isNonNullExpression(x) || ts.isSatisfiesExpression(x) || ts.isTypeAssertionExpression(x)) {
    x = x.expression;
  }
  return x;
}

function calleeName(e: ts.Expression): string {
  if (ts.isIdentifier(e)) return e.text;
  if (ts.isPropertyAccessExpression(e)) {
    const left = calleeName(e.expression);
    return left ? `${left}.${e.name.text}` : e.name.text;
  }
  return "";
}

/** `createHash(…).update(…).digest("hex")`, possibly through a local const. */
function isDigest(e: ts.Expression): boolean {
  const x = skipOuter(e);
  return ts.isCallExpression(x) && ts.isPropertyAccessExpression(x.expression) && x.expression.name.text === "digest";
}

function nameOf(e: ts.Expression): string | undefined {
  const x = skipOuter(e);
  if (ts.isIdentifier(x)) return x.text;
  if (ts.isPropertyAccessExpression(x)) return x.name.text;
  if (ts.isCallExpression(x)) return nameOf(x.expression);
  return undefined;
}

function typeKind(t: ts.Type): TsKeyPart["type"] {
  if (t.flags & (ts.TypeFlags.NumberLike | ts.TypeFlags.BigIntLike)) return "number";
  if (t.flags & ts.TypeFlags.StringLike) return "string";
  if (t.flags & ts.TypeFlags.BooleanLike) return "boolean";
  if (t.isUnion() && t.types.every((u) => u.flags & ts.TypeFlags.StringLike)) return "string";
  if (t.isUnion() && t.types.every((u) => u.flags & (ts.TypeFlags.NumberLike | ts.TypeFlags.Undefined | ts.TypeFlags.Null))) return "number";
  return "other";
}

function stringLiterals(t: ts.Type): string[] | undefined {
  const members = t.isUnion() ? t.types : [t];
  if (!members.every((m) => m.isStringLiteral())) return undefined;
  return members.map((m) => (m as ts.StringLiteralType).value);
}
