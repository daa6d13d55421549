/**
 * Decomposes a TypeScript key expression into parts — literal text, values
 * of a known type, zero-padded numbers, hash digests, clock readings,
 * time-ordered ids, counters — following local constants and helper
 * functions, with types from the checker.
 */
import ts from "typescript";
import { Budget } from "./budget";
import { FileFacts } from "./facts";
import { returnedExpressions } from "./returns";
import { numericByForm, schemaSaysNumber } from "./untyped-numbers";
import { skipOuter, symbolOf as symbolOfName } from "./syntax";
import { Env, NO_ENV, ValueResolver } from "./values";

export type TsPartKind = "literal" | "value" | "padded" | "hash" | "clock" | "time-id" | "counter" | "reversed-clock";

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
  /** A `clock` part that is a hash of the clock (still one value per moment). */
  hashed?: boolean;
}

const CLOCK_CALLS = new Set([
  "Date.now",
  "performance.now",
  "process.hrtime.bigint",
  "DateTime.now",
  "DateTime.utc",
  "DateTime.local",
  "Temporal.Now.instant",
  "Temporal.Now.plainDateISO",
]);
/** Date libraries' "now" when called without arguments: `dayjs()`, `moment()`, `moment.utc()`. */
const NOW_FACTORIES = new Set(["dayjs", "moment", "dayjs.utc", "moment.utc", "DateTime.now"]);
/** Methods whose result is still a reading of the same clock: a time bucket of it (a prefix, a field, a format). */
const CLOCK_VIEWS = new Set([
  "toISOString",
  "toJSON",
  "getTime",
  "valueOf",
  "toUTCString",
  "toDateString",
  // The locale formats of the date, of the time and of both (only core/text/ spells the last: eslint.config.mjs).
  ...["Date", "Time", ""].map((part) => `toLocale${part}String`),
  "toTimeString",
  "getFullYear",
  "getUTCFullYear",
  "getMonth",
  "getUTCMonth",
  "getDate",
  "getUTCDate",
  "getDay",
  "getUTCDay",
  "getHours",
  "getUTCHours",
  "getMinutes",
  "getUTCMinutes",
  "format",
  "toFormat",
  "toISO",
  "toISODate",
  "toMillis",
  "unix",
  "startOf",
  "utc",
  "toDate",
  "slice",
  "substring",
  "substr",
  "split",
  "padStart",
  "toString",
  "toFixed",
]);
/** Date libraries' formatting functions taking the date first: `format(new Date(), "yyyy-MM-dd")` (date-fns), `formatISO(…)`. */
const FORMAT_FUNCTIONS = new Set(["format", "formatISO", "formatInTimeZone", "lightFormat", "formatDate", "strftime"]);
const TIME_ID_CALLS = new Set(["ulid", "monotonicFactory", "uuidv7", "v7", "uuidV7", "ulidx", "ksuid"]);
const MAX_DEPTH = 8;
/**
 * Parts kept per key: helpers of wide templates calling each other multiply their parts (16 parts over 5 helpers
 * is a million), and no rule reads past the first few. The rest of a longer key is one string value.
 */
export const MAX_PARTS = 64;
const PENDING = "pending" as const;

export class KeyDecomposer {
  /** Parts of each key expression already decomposed (a key is asked for by several rules). */
  private readonly memo = new Map<ts.Node, Map<Env, { parts: TsKeyPart[]; depth: number } | typeof PENDING>>();

  /** The values of expressions (alternatives), shared by everything that follows values in this analysis. */
  readonly values: ValueResolver;

  constructor(
    readonly checker: ts.TypeChecker,
    readonly budget: Budget = new Budget(),
  ) {
    this.values = new ValueResolver(checker, budget);
  }

  /** The facts of the file a node is in (one walk per file, kept per checker). */
  facts(n: ts.Node): FileFacts {
    return FileFacts.of(this.checker, n.getSourceFile(), this.budget);
  }

  /** The parts of a key expression, in order (evaluated where `env` binds the parameters of the helper it is in). */
  parts(expr: ts.Expression, depth = 0, env: Env = NO_ENV): TsKeyPart[] {
    const e = skipOuter(expr);
    if (depth > MAX_DEPTH) {
      // The rest of a long concatenation: text, without asking the checker to type all of it.
      if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.PlusToken) return [{ kind: "value", node: e, type: "string" }];
      return [this.value(e, env)];
    }
    this.budget.tick();
    let byEnv = this.memo.get(e);
    if (!byEnv) this.memo.set(e, (byEnv = new Map()));
    const known = byEnv.get(env);
    // A key that refers back to itself (through a helper's return) is a value, not a loop.
    if (known === PENDING) return [this.value(e, env)];
    // Kept with the depth it was computed at: a result cut short deeper down is not reused higher up.
    if (known && known.depth <= depth) return known.parts;
    byEnv.set(env, PENDING);
    const parts = this.decompose(e, depth, env);
    byEnv.set(env, { parts, depth });
    return parts;
  }

  private decompose(e: ts.Expression, depth: number, env: Env): TsKeyPart[] {
    if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e))
      return [{ kind: "literal", node: e, text: e.text, width: e.text.length }];
    if (ts.isNumericLiteral(e)) return [{ kind: "literal", node: e, text: e.text, width: e.text.length }];
    if (ts.isTemplateExpression(e)) {
      const out: TsKeyPart[] = [];
      if (e.head.text) out.push({ kind: "literal", node: e.head, text: e.head.text, width: e.head.text.length });
      for (const span of e.templateSpans) {
        if (!this.append(out, this.parts(span.expression, depth + 1, env), e)) return out;
        if (span.literal.text) out.push({ kind: "literal", node: span.literal, text: span.literal.text, width: span.literal.text.length });
      }
      return out;
    }
    if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.PlusToken && this.isStringy(e)) {
      const out: TsKeyPart[] = [];
      if (this.append(out, this.parts(e.left, depth + 1, env), e)) this.append(out, this.parts(e.right, depth + 1, env), e);
      return out;
    }
    if (ts.isPostfixUnaryExpression(e) || ts.isPrefixUnaryExpression(e)) {
      const op = e.operator;
      if (op === ts.SyntaxKind.PlusPlusToken || op === ts.SyntaxKind.MinusMinusToken)
        return [{ kind: "counter", node: e, name: nameOf(e.operand) }];
    }
    if (ts.isIdentifier(e)) {
      const sym = symbolOfName(this.checker, e);
      const bound = sym && env.get(sym);
      // A parameter of the helper being followed: the argument of the call, in the caller's bindings.
      if (bound) {
        // Kept on the parameter when it has a type of its own (its fix belongs there); typed `any`, it takes the argument's.
        const own = this.checker.getTypeAtLocation(e);
        const typed = !(own.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown));
        return this.parts(bound.expr, depth + 1, bound.env).map((p) =>
          p.kind === "value" ? { ...p, node: e, ...(typed ? { type: typeKind(own), literals: stringLiterals(own) } : {}) } : p,
        );
      }
      const init = this.constInitializer(e);
      // A variable with a type of its own (`const n: number = req.body.n`) gives its value that type when the source has none.
      const own = this.checker.getTypeAtLocation(e);
      const declared = !(own.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown));
      if (init)
        return this.parts(init, depth + 1, NO_ENV).map((p) =>
          p.kind !== "value"
            ? p
            : { ...p, node: e, ...(declared && p.type === "other" ? { type: typeKind(own), literals: stringLiterals(own) } : {}) },
        );
      return [this.value(e, env)];
    }
    if (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) {
      // `visit.date` of an object made elsewhere (a constant, the argument of the call being followed): that property's value.
      const one = this.values.values(e, env);
      if (one.length === 1 && one[0].kind === "expr" && skipOuter(one[0].expr) !== e && !one[0].written)
        return this.parts(one[0].expr, depth + 1, one[0].env);
    }
    if (ts.isCallExpression(e) || ts.isNewExpression(e)) return this.callParts(e, depth, env);
    // `iso.split("T")[0]`: an element of a split clock reading is a time bucket.
    if (ts.isElementAccessExpression(e) && this.isClock(e.expression, depth, env)) return [{ kind: "clock", node: e }];
    if (ts.isBinaryExpression(e)) return this.arithmeticParts(e, depth, env);
    return [this.value(e, env)];
  }

  /**
   * Appends parts one at a time (a spread of a huge array overflows the stack), a budget step each, up to MAX_PARTS:
   * past it the rest of `whole` is one string value, and false says to stop.
   */
  private append(out: TsKeyPart[], more: readonly TsKeyPart[], whole: ts.Expression): boolean {
    for (const p of more) {
      this.budget.tick();
      if (out.length >= MAX_PARTS - 1) {
        out.push({ kind: "value", node: whole, type: "string" });
        return false;
      }
      out.push(p);
    }
    return true;
  }

  /** Numbers computed from the clock: `Date.now() / 3600000` is a clock bucket; `MAX − Date.now()` the reverse timestamp (log-tail) idiom. */
  private arithmeticParts(e: ts.BinaryExpression, depth: number, env: Env): TsKeyPart[] {
    const op = e.operatorToken.kind;
    if (op === ts.SyntaxKind.MinusToken && this.isClock(e.right, depth, env) && isLargeConstant(e.left)) {
      // Fixed width for millennia: 8640000000000000 − now and 9999999999999 − now keep their digit count.
      return [{ kind: "reversed-clock", node: e, width: skipOuter(e.left).getText().replace(/_/g, "").length }];
    }
    const arithmetic = [
      ts.SyntaxKind.MinusToken,
      ts.SyntaxKind.SlashToken,
      ts.SyntaxKind.AsteriskToken,
      ts.SyntaxKind.PlusToken,
      ts.SyntaxKind.PercentToken,
    ];
    if (
      arithmetic.includes(op) &&
      op !== ts.SyntaxKind.PercentToken &&
      (this.isClock(e.left, depth, env) || (op !== ts.SyntaxKind.MinusToken && this.isClock(e.right, depth, env)))
    ) {
      return [{ kind: "clock", node: e }];
    }
    return [this.value(e, env)];
  }

  /**
   * True when a `….update(x).digest()` chain hashes only the clock (and fixed text): `createHash("md5").update(day)`
   * gives one digest per moment, as the moment itself does.
   */
  private hashesClock(digest: ts.CallExpression, depth: number, env: Env): boolean {
    const inputs: ts.Expression[] = [];
    let x: ts.Expression = skipOuter((digest.expression as ts.PropertyAccessExpression).expression);
    while (ts.isCallExpression(x) && ts.isPropertyAccessExpression(x.expression) && x.expression.name.text === "update") {
      if (x.arguments[0]) inputs.push(x.arguments[0]);
      x = skipOuter(x.expression.expression);
    }
    if (!inputs.length) return false;
    const parts = inputs.flatMap((i) => this.parts(i, depth + 1, env));
    return parts.some((p) => p.kind === "clock") && parts.every((p) => p.kind === "clock" || p.kind === "literal");
  }

  /** True when an expression is a single clock reading (or a bucket of one). */
  private isClock(e: ts.Expression, depth: number, env: Env): boolean {
    if (depth > MAX_DEPTH) return false;
    const parts = this.parts(e, depth + 1, env);
    return parts.length === 1 && parts[0].kind === "clock";
  }

  private callParts(e: ts.CallExpression | ts.NewExpression, depth: number, env: Env): TsKeyPart[] {
    const callee = ts.isCallExpression(e) ? calleeName(e.expression) : "";
    if (
      ts.isNewExpression(e) &&
      ts.isIdentifier(e.expression) &&
      e.expression.text === "Date" &&
      (!e.arguments?.length || (e.arguments.length === 1 && this.isClock(e.arguments[0], depth, env)))
    ) {
      return [{ kind: "clock", node: e }];
    }
    if (!ts.isCallExpression(e)) return [this.value(e, env)];
    if (CLOCK_CALLS.has(callee) || (NOW_FACTORIES.has(callee) && !e.arguments.length)) return [{ kind: "clock", node: e }];
    if (FORMAT_FUNCTIONS.has(callee) && e.arguments[0] && this.isClock(e.arguments[0], depth, env)) return [{ kind: "clock", node: e }];
    if (
      ["Math.floor", "Math.round", "Math.trunc", "Math.ceil", "Number", "BigInt"].includes(callee) &&
      e.arguments[0] &&
      this.isClock(e.arguments[0], depth, env)
    )
      return [{ kind: "clock", node: e }];
    if (TIME_ID_CALLS.has(callee.split(".").pop() ?? "")) return [{ kind: "time-id", node: e }];
    if (callee === "String" && e.arguments.length === 1)
      return this.parts(e.arguments[0], depth + 1, env).map((p) => ({ ...p, node: p.kind === "value" ? e : p.node }));
    if (ts.isPropertyAccessExpression(e.expression)) {
      const method = e.expression.name.text;
      const target = e.expression.expression;
      if (method === "toString" && !e.arguments.length)
        return this.parts(target, depth + 1, env).map((p) => ({ ...p, node: p.kind === "value" ? e : p.node }));
      if (method === "padStart" || method === "padEnd") {
        const width = e.arguments[0] && ts.isNumericLiteral(e.arguments[0]) ? Number(e.arguments[0].text) : undefined;
        const inner = this.parts(target, depth + 1, env);
        const monotonic = inner.find((p) => p.kind === "clock" || p.kind === "counter" || p.kind === "time-id");
        return [monotonic ? { ...monotonic, node: e, width } : { kind: "padded", node: e, width, name: inner[0]?.name }];
      }
      if ((method === "slice" || method === "substring" || method === "substr") && isDigest(target)) {
        const [a, b] = e.arguments;
        const width = a && b && ts.isNumericLiteral(a) && ts.isNumericLiteral(b) ? Number(b.text) - Number(a.text) : undefined;
        // A hash of a time bucket is still a bucket: every entity of the moment gets the same digest.
        if (this.hashesClock(skipOuter(target) as ts.CallExpression, depth, env)) return [{ kind: "clock", node: e, width, hashed: true }];
        return [{ kind: "hash", node: e, width }];
      }
      if (method === "digest")
        return [this.hashesClock(e, depth, env) ? { kind: "clock", node: e, hashed: true } : { kind: "hash", node: e }];
      if (CLOCK_VIEWS.has(method)) {
        // A prefix, a field or a format of a clock reading is a time bucket: still the clock.
        const inner = this.parts(target, depth + 1, env);
        if (inner.length === 1 && inner[0].kind === "clock") return [{ kind: "clock", node: e }];
        if (inner.length === 1 && inner[0].kind === "reversed-clock") return [{ ...inner[0], node: e }];
        // A view of a date nobody here makes (a parameter typed Date, a Dayjs, a luxon DateTime): a time, whoever reads it.
        if (inner.length === 1 && inner[0].kind === "value" && isDateType(this.typeOf(skipOuter(target), env)))
          return [{ kind: "clock", node: e }];
        if (method === "toISOString" || method === "toJSON")
          return [{ kind: "value", node: e, type: "string", width: 24, name: nameOf(target) }];
      }
      if (["toLowerCase", "toUpperCase", "trim"].includes(method)) return this.parts(target, depth + 1, env);
    }
    // A helper function of the program: follow its single returned expression, its parameters bound to the arguments.
    const returned = this.returnedExpression(e);
    if (returned) return this.parts(returned, depth + 1, this.values.bind(e, env));
    return [this.value(e, env)];
  }

  /**
   * A value part with its type from the checker. A value typed `any` inside a helper being followed
   * (`String(row.id)` with `row: any`) takes its type from the argument the call passes.
   */
  value(e: ts.Expression, env: Env = NO_ENV): TsKeyPart {
    const type = this.typeOf(e, env);
    const literals = stringLiterals(type);
    // Untyped (a request's body in JavaScript), a field the file's validation schema declares a number is one.
    const untypedNumber = type.flags & ts.TypeFlags.Any && (schemaSaysNumber(e) || numericByForm(this.checker, (n) => this.facts(n), e));
    const kind = untypedNumber ? "number" : typeKind(type);
    return { kind: "value", node: e, type: kind, ...(literals ? { literals } : {}), name: nameOf(e) };
  }

  private typeOf(e: ts.Expression, env: Env): ts.Type {
    const own = this.checker.getTypeAtLocation(e);
    if (!env.size || !(own.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown))) return own;
    const x = skipOuter(e);
    if (ts.isIdentifier(x)) {
      const sym = symbolOfName(this.checker, x);
      const bound = sym && env.get(sym);
      return bound ? this.typeOf(bound.expr, bound.env) : own;
    }
    if (ts.isPropertyAccessExpression(x)) {
      const prop = this.typeOf(x.expression, env).getProperty(x.name.text);
      return prop ? this.checker.getTypeOfSymbol(prop) : own;
    }
    return own;
  }

  /**
   * A `+` that joins text: a string literal or template among the operands of its chain (looked at
   * without the checker, which would type a 5,000-part concatenation all at once), else the checker's type.
   */
  private isStringy(e: ts.BinaryExpression): boolean {
    const literal = (s: ts.Expression) => ts.isStringLiteralLike(skipOuter(s)) || ts.isTemplateExpression(skipOuter(s));
    let x: ts.Expression = e;
    for (let i = 0; i < 4 && ts.isBinaryExpression(x) && x.operatorToken.kind === ts.SyntaxKind.PlusToken; i++, x = skipOuter(x.left))
      if (literal(x.left) || literal(x.right)) return true;
    const t = this.checker.getTypeAtLocation(e);
    return (t.flags & (ts.TypeFlags.StringLike | ts.TypeFlags.Any)) !== 0;
  }

  /**
   * The one value a variable declared in this program holds: a `const`'s
   * initializer, or a `let`/`var` assigned exactly once (its initializer
   * and no assignment, or no initializer and one plain assignment).
   */
  constInitializer(id: ts.Identifier): ts.Expression | undefined {
    const sym = symbolOfName(this.checker, id);
    const decl = sym?.valueDeclaration;
    if (!sym || !decl || !ts.isVariableDeclaration(decl) || !ts.isIdentifier(decl.name)) return undefined;
    if ((ts.getCombinedNodeFlags(decl) & ts.NodeFlags.Const) !== 0) return decl.initializer;
    const defs = this.facts(decl).defs(sym);
    return defs.length === 1 && (defs[0].kind === "init" || defs[0].kind === "assign") ? defs[0].value : undefined;
  }

  /** The expression a called function returns, when it has a single `return` (or is an arrow with an expression body). */
  returnedExpression(call: ts.CallExpression): ts.Expression | undefined {
    const sig = this.checker.getResolvedSignature(call);
    const decl = sig?.declaration;
    if (!decl || decl.getSourceFile().isDeclarationFile) return undefined;
    if (!ts.isFunctionLike(decl)) return undefined;
    const returns = returnedExpressions(decl);
    return returns?.length === 1 ? returns[0] : undefined;
  }
}

export { skipOuter, symbolOf } from "./syntax";

/** A numeric literal of 13 digits or more, or `Number.MAX_SAFE_INTEGER`: the minuend of a reverse timestamp. */
function isLargeConstant(e: ts.Expression): boolean {
  const x = skipOuter(e);
  if (ts.isNumericLiteral(x)) return x.text.replace(/_/g, "").length >= 13;
  if (ts.isBigIntLiteral(x)) return x.text.length >= 14;
  return ts.isPropertyAccessExpression(x) && x.getText() === "Number.MAX_SAFE_INTEGER";
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
  if (t.isUnion() && t.types.every((u) => u.flags & (ts.TypeFlags.NumberLike | ts.TypeFlags.Undefined | ts.TypeFlags.Null)))
    return "number";
  return "other";
}

function stringLiterals(t: ts.Type): string[] | undefined {
  const members = t.isUnion() ? t.types : [t];
  if (!members.every((m) => m.isStringLiteral())) return undefined;
  return members.map((m) => (m as ts.StringLiteralType).value);
}

/** The one text a key's parts spell when every part is fixed (a literal, or a value whose declared type is one string literal). */
export function constantText(parts: readonly TsKeyPart[]): string | undefined {
  if (!parts.length) return undefined;
  let out = "";
  for (const p of parts) {
    if (p.kind === "literal") out += p.text ?? "";
    else if (p.kind === "value" && p.literals?.length === 1) out += p.literals[0];
    else return undefined;
  }
  return out;
}

/** Types of a point in time: the built-in `Date`, and the date libraries' own (dayjs, moment, luxon). */
const DATE_TYPES = new Set(["Date", "Dayjs", "Moment", "DateTime"]);

function isDateType(t: ts.Type): boolean {
  const name = t.getSymbol()?.getName() ?? t.aliasSymbol?.getName();
  return !!name && DATE_TYPES.has(name);
}
