/**
 * Transaction rules over TypeScript code: `submitTransaction` actions across
 * partitions, and more actions than one batch holds.
 */
import ts from "typescript";
import { locationOf } from "../written-keys";
import { PartitionRefs } from "../partition-refs";
import { defineTsRule, span } from "./rule";

export const crossPartitionTransaction = defineTsRule({
  code: "ts/cross-partition-transaction",
  severity: "error",
  family: "TypeScript code",
  docs: {
    summary:
      "`submitTransaction` actions whose partition keys differ, or may differ (two different variables, unless the code shows them equal)",
    why: "An entity group transaction must stay in one partition; the service rejects it otherwise.",
  },
  messages: {
    different: (p: { keys: string[]; more: boolean }) =>
      `submitTransaction's actions have different partition keys (${p.keys.join(", ")}${p.more ? ", …" : ""}): an entity group transaction must stay in one partition, so the service rejects it.`,
    mayDiffer: (p: { keys: string[]; more: boolean }) =>
      `submitTransaction's actions take their partition keys from different values (${p.keys.join(", ")}${p.more ? ", …" : ""}), which may differ: an entity group transaction must stay in one partition, so the service rejects it whenever they do. ` +
      "Submit one transaction per partition, or key the entities so that they share one.",
  },

  check(ctx) {
    for (const tx of ctx.usage.transactions) {
      const refs = new PartitionRefs(ctx);
      const keys = new Map<string, string>();
      let unknown = false;
      for (const w of tx.writes) {
        const key = w.partitionKey && refs.of(w.partitionKey, ctx.decomposer.parts(w.partitionKey, 0, w.partitionKeyEnv));
        if (key) keys.set(key.id, key.shown);
        else unknown = true;
      }
      if (keys.size < 2) continue;
      const literal = [...keys.keys()].every((k) => k.startsWith('"'));
      const shown = { keys: [...keys.values()], more: unknown };
      if (literal) {
        ctx.report(span(ctx.sf, tx.call), "different", shown);
        continue;
      }
      // Two different values (a transfer's `from` and `to`) are two partitions unless the code shows them equal.
      if (refs.shownEqual([...keys.keys()], tx.call)) continue;
      ctx.report(span(ctx.sf, tx.call), "mayDiffer", shown);
    }
  },
});

export const transactionTooLarge = defineTsRule({
  code: "ts/transaction-too-large",
  severity: "error",
  family: "TypeScript code",
  docs: {
    summary: "more than 100 actions, statically known",
    why: "One batch holds at most 100 operations (Azure); the service rejects a larger one.",
  },
  messages: {
    tooLarge: (p: { count: number; service: string; max: number }) =>
      `submitTransaction with ${p.count} actions: one ${p.service} batch holds at most ${p.max}. Split it into groups of ${p.max}.`,
    addedHere: (p: { count: number; line: number; service: string; max: number }) =>
      `this adds ${p.count} actions to the transaction submitted at line ${p.line}: one ${p.service} batch holds at most ${p.max}. Split it into groups of ${p.max}.`,
  },

  check(ctx) {
    const max = ctx.profile.batchMaxOperations;
    for (const tx of ctx.usage.transactions) {
      if (tx.count === undefined || tx.count <= max) continue;
      const limit = { count: tx.count, service: ctx.profile.label, max };
      // Where the number is set, when that is another array filled elsewhere (a while loop up to N): a hint there, related both ways.
      const origin =
        tx.countFilled && tx.countAt && tx.countAt.getSourceFile() === ctx.sf && !within(tx.countAt, tx.call) ? tx.countAt : undefined;
      const submitted = locationOf(tx.call);
      const from = origin && locationOf(origin);
      ctx.report(span(ctx.sf, tx.call), "tooLarge", limit, {
        related: from && from.line !== submitted.line ? [{ ...from, message: `the ${tx.count} actions are added here` }] : undefined,
      });
      if (!origin || !from || from.line === submitted.line) continue;
      ctx.report(
        span(ctx.sf, origin),
        "addedHere",
        { ...limit, line: submitted.line + 1 },
        {
          severity: "hint",
          related: [{ ...submitted, message: `submitTransaction with ${tx.count} actions` }],
        },
      );
    }
  },
});

function within(n: ts.Node, scope: ts.Node): boolean {
  return n.getStart() >= scope.getStart() && n.getEnd() <= scope.getEnd();
}
