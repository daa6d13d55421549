/**
 * Writes made through the application's own helpers: a `save(table, entity)`
 * around `upsertEntity`, a repository method that writes the object it is
 * given, a service that hands its argument to such a method. Each function
 * is summarised once per program — the SDK writes whose entity, keys or
 * client come from its parameters, and the calls that pass its parameters on
 * to other such functions — and every call of it is then seen as making
 * those writes with its own arguments (calls.ts binds them).
 *
 * Finding the calls to look at must not cost a type-check of every call:
 * the names of functions that write through a parameter are read from the
 * syntax of the files that name an SDK method (kept per file), closed over
 * the functions that pass their parameters on, once per program. Only
 * calls of those names are resolved with the checker.
 */
import ts from "typescript";
import { Budget } from "./budget";
import { MethodCall } from "./facts";
import { mayCallSdk, WRITE_METHODS } from "./sdk";
import { skipOuter } from "./syntax";

/** A write of the SDK inside a function whose entity, keys or client come from a parameter. */
export interface SummaryWrite {
  call: MethodCall;
  method: string;
  entity: ts.Expression;
}

export interface Summary {
  decl: ts.SignatureDeclaration;
  writes: SummaryWrite[];
  /** Calls in the body that pass a parameter on to another function that writes through one. */
  forwards: Array<{ call: ts.CallExpression; callee: ts.SignatureDeclaration }>;
}

/** A named function of a file, read from its syntax: whether it writes through a parameter, and the names it passes parameters to. */
interface Named {
  name: string;
  writes: boolean;
  passesTo: string[];
}

const syntaxOf = new WeakMap<ts.SourceFile, Named[]>();
const forProgram = new WeakMap<ts.Program, Wrappers>();
const PENDING = null;

export class Wrappers {
  /** Names of the functions that write through a parameter, directly or by passing it on. */
  readonly names: ReadonlySet<string>;
  private readonly memo = new Map<ts.Node, Summary | typeof PENDING>();

  /** The wrappers of a program, found once per program (the per-file syntax is kept while the file is unchanged). */
  static of(program: ts.Program): Wrappers {
    let w = forProgram.get(program);
    if (!w) forProgram.set(program, (w = new Wrappers(program)));
    return w;
  }

  private readonly checker: ts.TypeChecker;
  /** The classes of the files that name an SDK method: where an interface's method is implemented with a write. */
  private readonly classes: ts.ClassLikeDeclaration[] = [];
  private readonly implementations = new Map<ts.Symbol, ts.SignatureDeclaration | null>();

  private constructor(program: ts.Program) {
    this.checker = program.getTypeChecker();
    const named: Named[] = [];
    for (const sf of program.getSourceFiles()) {
      if (sf.isDeclarationFile || !mayCallSdk(sf.text)) continue;
      let found = syntaxOf.get(sf);
      if (!found) syntaxOf.set(sf, (found = namedFunctions(sf)));
      named.push(...found);
      if (/\bimplements\b/.test(sf.text)) for (const st of sf.statements) if (ts.isClassDeclaration(st)) this.classes.push(st);
    }
    const names = new Set(named.filter((n) => n.writes).map((n) => n.name));
    // Closed over the functions that pass a parameter on to one of them (a service calling a repository).
    for (let grew = true; grew;) {
      grew = false;
      for (const n of named)
        if (!names.has(n.name) && n.passesTo.some((t) => names.has(t))) {
          names.add(n.name);
          grew = true;
        }
    }
    this.names = names;
  }

  private mention: RegExp | undefined;

  /** True when a text calls a function of one of the wrappers' names (a file may write through a helper without naming an SDK method). */
  mentionedIn(text: string): boolean {
    if (!this.names.size) return false;
    this.mention ??= new RegExp(`\\b(?:${[...this.names].join("|")})\\s*\\(`);
    return this.mention.test(text);
  }

  /** The function of the program a call runs, when its name is one of the wrappers'. */
  callee(call: ts.CallExpression): ts.SignatureDeclaration | undefined {
    const checker = this.checker;
    const name = calleeName(call);
    if (!name || !this.names.has(name.text)) return undefined;
    let sym = checker.getSymbolAtLocation(name);
    if (sym && sym.flags & ts.SymbolFlags.Alias) sym = checker.getAliasedSymbol(sym);
    for (const d of sym?.declarations ?? []) {
      const fn = functionOf(d);
      if (fn && !fn.getSourceFile().isDeclarationFile) return fn;
    }
    // `const { save } = require("./store")` in JavaScript: the binding is no alias; the call's signature says which function it is.
    const signed = checker.getResolvedSignature(call)?.declaration;
    if (signed && ts.isFunctionLike(signed) && !signed.getSourceFile().isDeclarationFile && (signed as ts.FunctionLikeDeclaration).body)
      return signed;
    // A method of an interface (`store.save(x)` with `store: Store`): the one class of the program that implements it
    // with the SDK's writes (beside an in-memory one that has none).
    if (signed && ts.isMethodSignature(signed) && ts.isInterfaceDeclaration(signed.parent) && sym)
      return this.implementation(sym, signed.parent, name.text);
    return undefined;
  }

  /** The method `name` of the class that implements `iface` in a file naming the SDK's methods, when there is one such class. */
  private implementation(method: ts.Symbol, iface: ts.InterfaceDeclaration, name: string): ts.SignatureDeclaration | undefined {
    const known = this.implementations.get(method);
    if (known !== undefined) return known ?? undefined;
    const ifaceSym = this.checker.getSymbolAtLocation(iface.name);
    const found: ts.SignatureDeclaration[] = [];
    for (const c of this.classes) {
      const implementsIt = (c.heritageClauses ?? []).some(
        (h) =>
          h.token === ts.SyntaxKind.ImplementsKeyword &&
          h.types.some((t) => {
            let s = this.checker.getSymbolAtLocation(t.expression);
            if (s && s.flags & ts.SymbolFlags.Alias) s = this.checker.getAliasedSymbol(s);
            return s === ifaceSym;
          }),
      );
      if (!implementsIt) continue;
      const m = c.members.find((x): x is ts.MethodDeclaration => ts.isMethodDeclaration(x) && !!x.body && x.name.getText() === name);
      if (m && mayCallSdk(m.getText())) found.push(m);
    }
    const one = found.length === 1 ? found[0] : undefined;
    this.implementations.set(method, one ?? null);
    return one;
  }

  /** What a function writes through its parameters; computed once (a recursive function sees itself as writing nothing). */
  summary(decl: ts.SignatureDeclaration, budget: Budget): Summary | undefined {
    const known = this.memo.get(decl);
    if (known !== undefined) return known ?? undefined;
    this.memo.set(decl, PENDING);
    try {
      const s = this.compute(decl, budget);
      this.memo.set(decl, s);
      return s;
    } catch (e) {
      // Not kept: another file's analysis, with time left, computes it in full.
      this.memo.delete(decl);
      throw e;
    }
  }

  private compute(decl: ts.SignatureDeclaration, budget: Budget): Summary {
    const checker = this.checker;
    const params = new Set<ts.Symbol>();
    for (const p of decl.parameters) for (const id of bindingNames(p.name)) addSymbol(params, checker.getSymbolAtLocation(id));
    const derived = new ParamUse(checker, params);
    const out: Summary = { decl, writes: [], forwards: [] };
    const body = (decl as ts.FunctionLikeDeclaration).body;
    const stack: ts.Node[] = body ? [body] : [];
    while (stack.length) {
      budget.tick();
      const n = stack.pop()!;
      ts.forEachChild(n, (c) => void stack.push(c));
      if (!ts.isCallExpression(n)) continue;
      const callee = n.expression;
      if (ts.isPropertyAccessExpression(callee) && WRITE_METHODS.has(callee.name.text) && n.arguments[0]) {
        if (derived.mentions(n.arguments[0]) || derived.mentions(callee.expression))
          out.writes.push({ call: n as MethodCall, method: callee.name.text, entity: n.arguments[0] });
        continue;
      }
      if (!n.arguments.some((a) => derived.mentions(a))) continue;
      const target = this.callee(n);
      const inner = target && target !== decl ? this.summary(target, budget) : undefined;
      if (target && inner && (inner.writes.length || inner.forwards.length)) out.forwards.push({ call: n, callee: target });
    }
    out.writes.sort((a, b) => a.call.pos - b.call.pos);
    return out;
  }
}

/** Whether an expression uses a parameter, directly or through a local const made from one. */
class ParamUse {
  private readonly memo = new Map<ts.Symbol, boolean>();

  constructor(
    private readonly checker: ts.TypeChecker,
    private readonly params: ReadonlySet<ts.Symbol>,
  ) {}

  mentions(e: ts.Node, depth = 0): boolean {
    return some(e, (n) => {
      if (!ts.isIdentifier(n)) return false;
      const sym = this.checker.getSymbolAtLocation(n);
      return !!sym && this.derived(sym, depth);
    });
  }

  private derived(sym: ts.Symbol, depth: number): boolean {
    if (this.params.has(sym)) return true;
    const known = this.memo.get(sym);
    if (known !== undefined) return known;
    this.memo.set(sym, false);
    const d = sym.valueDeclaration;
    const yes = depth < 3 && !!d && ts.isVariableDeclaration(d) && !!d.initializer && this.mentions(d.initializer, depth + 1);
    this.memo.set(sym, yes);
    return yes;
  }
}

/** The named functions of a file and what their syntax says: writes through a parameter, names parameters are passed to. */
function namedFunctions(sf: ts.SourceFile): Named[] {
  const out: Named[] = [];
  // Walked with stacks of their own: a key of 5,000 concatenated parts is a tree 5,000 deep.
  some(
    sf,
    (n) => {
      const fn = ts.isFunctionLike(n) && (n as ts.FunctionLikeDeclaration).body ? (n as ts.FunctionLikeDeclaration) : undefined;
      const name = fn && nameOfFunction(fn);
      if (!fn?.body || !name) return false;
      const params = new Set<string>();
      for (const p of fn.parameters) for (const id of bindingNames(p.name)) params.add(id.text);
      const uses = (e: ts.Node) => some(e, (x) => ts.isIdentifier(x) && params.has(x.text), true);
      const info: Named = { name, writes: false, passesTo: [] };
      some(
        fn.body,
        (x) => {
          // A local made from a parameter counts as one (`const entity = { ...input, partitionKey: k }`).
          if (ts.isVariableDeclaration(x) && x.initializer && uses(x.initializer))
            for (const id of bindingNames(x.name)) params.add(id.text);
          if (ts.isCallExpression(x)) {
            const callee = x.expression;
            if (ts.isPropertyAccessExpression(callee) && WRITE_METHODS.has(callee.name.text)) {
              if ((x.arguments[0] && uses(x.arguments[0])) || uses(callee.expression)) info.writes = true;
            } else if (x.arguments.some(uses)) {
              const c = calleeName(x);
              if (c) info.passesTo.push(c.text);
            }
          }
          return false;
        },
        true,
      );
      if (info.writes || info.passesTo.length) out.push(info);
      return false;
    },
    true,
  );
  return out;
}

/**
 * Whether `test` holds for a node under `root` (root included), in source order, with a stack of its
 * own. Nested functions are not entered unless `intoFunctions`.
 */
function some(root: ts.Node, test: (n: ts.Node) => boolean, intoFunctions = false): boolean {
  const stack: ts.Node[] = [root];
  const children: ts.Node[] = [];
  while (stack.length) {
    const n = stack.pop()!;
    if (test(n)) return true;
    if (n !== root && !intoFunctions && ts.isFunctionLike(n)) continue;
    ts.forEachChild(n, (c) => void children.push(c));
    while (children.length) stack.push(children.pop()!);
  }
  return false;
}

function nameOfFunction(fn: ts.FunctionLikeDeclaration): string | undefined {
  if ((ts.isFunctionDeclaration(fn) || ts.isMethodDeclaration(fn)) && fn.name && ts.isIdentifier(fn.name)) return fn.name.text;
  const parent = fn.parent;
  if ((ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) && parent) {
    if (
      (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) &&
      ts.isIdentifier(parent.name)
    )
      return parent.name.text;
  }
  return undefined;
}

/** The function-like a declaration stands for: itself, or the arrow/function a variable or property holds. */
function functionOf(d: ts.Declaration): ts.SignatureDeclaration | undefined {
  if ((ts.isFunctionDeclaration(d) || ts.isMethodDeclaration(d)) && d.body) return d;
  if ((ts.isVariableDeclaration(d) || ts.isPropertyAssignment(d) || ts.isPropertyDeclaration(d)) && d.initializer) {
    const init = skipOuter(d.initializer);
    if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) return init;
  }
  return undefined;
}

function calleeName(call: ts.CallExpression): ts.Identifier | undefined {
  const c = skipOuter(call.expression);
  if (ts.isIdentifier(c)) return c;
  if (ts.isPropertyAccessExpression(c) && ts.isIdentifier(c.name)) return c.name;
  return undefined;
}

function bindingNames(n: ts.BindingName): ts.Identifier[] {
  if (ts.isIdentifier(n)) return [n];
  return n.elements.flatMap((e) => (ts.isOmittedExpression(e) ? [] : bindingNames(e.name)));
}

function addSymbol(set: Set<ts.Symbol>, sym: ts.Symbol | undefined): void {
  if (sym) set.add(sym);
}
