/**
 * Transaction rules over TypeScript code: `submitTransaction` actions across
 * partitions, and more actions than one batch holds.
 */
import ts from "typescript";
import { locationOf } from "../written-keys";
import { PartitionRefs } from "../partition-refs";
import { span, TsRule } from "./rule";

export const crossPartitionTransaction: TsRule = {
  code: "ts/cross-partition-transaction",
  severity: "error",
  family: "TypeScript code",
  docs: {
    summary:
      "`submitTransaction` actions whose partition keys differ, or may differ (two different variables, unless the code shows them equal)",
    why: "An entity group transaction must stay in one partition; the service rejects it otherwise.",
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
      const shown = [...keys.values()].join(", ") + (unknown ? ", …" : "");
      if (literal) {
        ctx.report(
          span(ctx.sf, tx.call),
          `submitTransaction's actions have different partition keys (${shown}): an entity group transaction must stay in one partition, so the service rejects it.`,
        );
        continue;
      }
      // Two different values (a transfer's `from` and `to`) are two partitions unless the code shows them equal.
      if (refs.shownEqual([...keys.keys()], tx.call)) continue;
      ctx.report(
        span(ctx.sf, tx.call),
        `submitTransaction's actions take their partition keys from different values (${shown}), which may differ: an entity group transaction must stay in one partition, so the service rejects it whenever they do. ` +
          "Submit one transaction per partition, or key the entities so that they share one.",
      );
    }
  },
};

export const transactionTooLarge: TsRule = {
  code: "ts/transaction-too-large",
  severity: "error",
  family: "TypeScript code",
  docs: {
    summary: "more than 100 actions, statically known",
    why: "One batch holds at most 100 operations (Azure); the service rejects a larger one.",
  },
  check(ctx) {
    const max = ctx.profile.batchMaxOperations;
    for (const tx of ctx.usage.transactions) {
      if (tx.count === undefined || tx.count <= max) continue;
      const too = `one ${ctx.profile.label} batch holds at most ${max}. Split it into groups of ${max}.`;
      // Reported where the number is set (the loop that adds or fills the actions), the submission as a related place.
      const at = tx.countAt && tx.countAt.getSourceFile() === ctx.sf && !within(tx.countAt, tx.call) ? tx.countAt : undefined;
      if (!at) {
        ctx.report(span(ctx.sf, tx.call), `submitTransaction with ${tx.count} actions: ${too}`);
        continue;
      }
      const submitted = locationOf(tx.call);
      ctx.report(span(ctx.sf, at), `this adds ${tx.count} actions to the transaction submitted at line ${submitted.line + 1}: ${too}`, {
        related: [{ ...submitted, message: `submitTransaction with ${tx.count} actions` }],
      });
    }
  },
};

function within(n: ts.Node, scope: ts.Node): boolean {
  return n.getStart() >= scope.getStart() && n.getEnd() <= scope.getEnd();
}
