/**
 * Transaction rules over TypeScript code: `submitTransaction` actions across
 * partitions, and more actions than one batch holds.
 */
import { span, TsRule } from "./rule";

export const crossPartitionTransaction: TsRule = {
  code: "ts/cross-partition-transaction",
  severity: "error",
  family: "TypeScript code",
  docs: {
    summary: "`submitTransaction` actions whose partition keys provably differ",
    why: "An entity group transaction must stay in one partition; the service rejects it otherwise.",
  },
  check(ctx) {
    for (const tx of ctx.usage.transactions) {
      const constants = new Set<string>();
      let unknown = false;
      for (const w of tx.writes) {
        const parts = w.partitionKey ? ctx.decomposer.parts(w.partitionKey, 0, w.partitionKeyEnv) : [];
        if (parts.length && parts.every((p) => p.kind === "literal")) constants.add(parts.map((p) => p.text).join(""));
        else unknown = true;
      }
      if (constants.size < 2) continue;
      ctx.report(
        span(ctx.sf, tx.call),
        `submitTransaction's actions have different partition keys (${[...constants].map((c) => `"${c}"`).join(", ")}${unknown ? ", …" : ""}): ` +
          "an entity group transaction must stay in one partition, so the service rejects it.",
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
      ctx.report(
        span(ctx.sf, tx.call),
        `submitTransaction with ${tx.count} actions: a ${ctx.profile.label} batch holds at most ${max}. Split it into groups of ${max}.`,
      );
    }
  },
};
