/**
 * What the TypeScript analysis says about itself rather than about the code.
 * Codes: a file whose time budget ran out (`ts/budget`: the analyzer adds it
 * once every rule has run; the record gives the code its place in the
 * catalog, the docs, SARIF and the severity settings), and calls it cannot
 * see because their client is typed `any` (`ts/untyped-client`). And the
 * notices of a file's result, one list however many kinds there are: the
 * server and the CLI say each as its kind asks, so a new notice is one more
 * kind here and the place that makes it.
 */
import ts from "typescript";
import { defineTsRule, span } from "./rule";

export const budgetNotice = defineTsRule({
  code: "ts/budget",
  severity: "info",
  family: "TypeScript code",
  docs: {
    summary: "the analysis of a file stopped at its time budget: the message says what was skipped; the findings made before are kept",
    why: "Diagnostics must follow typing whatever the code: past the budget, the rest of the file would otherwise hold the editor (or `tdl check`) for as long as it takes.",
  },
  messages: {
    stopped: (p: { ms: number; skipped: string[] }) =>
      `the analysis of this file stopped at its time budget (${p.ms.toFixed(0)} ms) and skipped: ${p.skipped.join("; ")}. ` +
      "The findings shown were made before; the rest of the file may hold more.",
  },

  check() {
    // Reported by the analyzer once the rules have run (analysis.ts, budgetNotice).
  },
});

export const untypedClient = defineTsRule({
  code: "ts/untyped-client",
  severity: "hint",
  family: "TypeScript code",
  docs: {
    summary:
      "an SDK method called on a client the checker types `any` that the analysis could not trace to where it is made: the hint says why; the project gets one notice",
    why: "The analysis judges keys, filters and tables by their types: through an `any` it sees nothing there, and silence would read as a clean bill.",
    fix: "type the client (`TableClient`, or a JSDoc `@type` in JavaScript)",
  },
  messages: {
    untyped: (p: { method: string; why: string }) =>
      `the analysis cannot see this ${p.method} call: ${p.why}, so its table, keys and filter are not checked. Type the client as TableClient (or with a JSDoc @type in JavaScript).`,
    recognisedByShape: (p: { how: string; more: number }) =>
      `this client is typed any and could not be traced to where it is made; it is taken for a TableClient because ${p.how}` +
      `${p.more ? ` (and ${p.more} more call${p.more > 1 ? "s" : ""} of this file likewise)` : ""}. Type it as TableClient (or with a JSDoc @type in JavaScript) to have its table checked too.`,
  },

  check(ctx) {
    for (const u of ctx.usage.untyped) {
      const callee = u.call.expression as ts.PropertyAccessExpression;
      ctx.report(span(ctx.sf, callee.name), "untyped", { method: callee.name.text, why: u.why });
    }
    // Recognised without types: said once per file, at the first such call, so that the user knows what the findings rest on.
    const first = ctx.usage.recognised[0];
    if (first) {
      const callee = first.call.expression as ts.PropertyAccessExpression;
      const more = ctx.usage.recognised.length - 1;
      ctx.report(span(ctx.sf, callee.name), "recognisedByShape", { how: first.how, more });
    }
  },
});

/** The kinds of notice, and how each is said: `once` a warning shown once per session (and once by the CLI), `log` a line in the log. */
export const NOTICE_KINDS = {
  /** `@azure/data-tables` is imported but its types do not resolve: most findings are missing. */
  sdkUnresolved: "once",
  /** The file was not analysed (nested too deep, or its project's time is spent). */
  notAnalysed: "log",
  /** Some SDK calls go through clients typed `any` (each carries a `ts/untyped-client` hint). */
  untypedClients: "once",
  /** The file's time budget ran out: what was skipped (the findings carry one `ts/budget` notice too). */
  budget: "log",
} as const satisfies Record<string, "once" | "log">;

/** One thing a file's analysis says about itself, beside its findings. */
export interface TsNotice {
  kind: keyof typeof NOTICE_KINDS;
  /** The sentence, naming the file or folder it concerns. */
  text: string;
  /** How it is said (its kind's): the server and the CLI need not load the analysis to know. */
  say: "once" | "log";
}

/** A notice of `kind`, said as its kind is. */
export const notice = (kind: TsNotice["kind"], text: string): TsNotice => ({ kind, text, say: NOTICE_KINDS[kind] });
