/**
 * Transaction rules (`docs/rules.md`, "Transactions and entities"): entity group
 * transactions that cross partitions or exceed the batch limits.
 */
import { Expr, Query, Transaction } from "../tdl/ast";
import { tableFacts } from "../model/facts";
import { KeyInfo } from "../model/key-parts";
import { formatBytes } from "../tdl/numbers";
import { formatCount } from "../text/words";
import { Fix } from "../findings";
import { chooseSeparator, keyPartText, tdlString } from "./fix-helpers";
import { defineRule, TableContext } from "./rule";
import { secondTable } from "./fixes/second-table";

/**
 * Re-keys the table on the transaction's shared properties: they become the
 * partition key; the partition key's other parts move into the row key.
 */
function rekeyFix(ctx: TableContext, tx: Transaction, pk: KeyInfo, rk: KeyInfo): Fix | undefined {
  const shared = tx.sharing.map((s) => ctx.props.get(s.text)).filter((p) => !!p);
  if (!shared.length || shared.length !== tx.sharing.length) return undefined;
  const sharedNames = new Set(shared.map((p) => p!.name));
  const text = (e: { start: number; end: number }) => ctx.text.slice(e.start, e.end);
  const sep = chooseSeparator([], ctx.profile) ?? "_";
  const newPk = shared.map((p) => keyPartText(p!)).join(` + ${tdlString(sep)} + `);
  // Row key: drop the parts the shared properties decide (and separators left dangling), then add the moved parts.
  const kept = rk.parts.filter((p) => !(p.props.length && p.props.every((n) => sharedNames.has(n))));
  const rkParts = trimLiterals(kept.map((p) => ({ text: text(p.part), literal: p.literal !== undefined })));
  const moved = pk.parts.filter((p) => p.props.some((n) => !sharedNames.has(n))).map((p) => text(p.part));
  const lastSep = rk.parts.find((p) => p.literal !== undefined && p.literal !== "")?.part;
  const joiner = lastSep ? text(lastSep) : tdlString("_");
  const rest = rkParts.map((p) => p.text).join(" + ");
  const newRk = [rest, ...moved].filter(Boolean).join(` + ${joiner} + `);
  if (!newRk) return undefined;
  const edits = [replace(pk.expr, newPk), replace(rk.expr, newRk)];
  return { title: `Key by ${[...sharedNames].join(", ")}: partitionKey = ${newPk}, rowKey = ${newRk}`, edits, preferred: true };
}

function replace(expr: Expr, newText: string) {
  return { start: expr.start, end: expr.end, newText };
}

/** Removes literal parts at either end and collapses runs of literals to their first. */
function trimLiterals<T extends { literal: boolean }>(parts: T[]): T[] {
  const out: T[] = [];
  for (const p of parts) if (!(p.literal && (out.length === 0 || out[out.length - 1].literal))) out.push(p);
  while (out.length && out[out.length - 1].literal) out.pop();
  return out;
}

export const crossPartition = defineRule({
  code: "transaction/cross-partition",
  severity: "error",
  family: "Transactions and entities",
  docs: {
    summary: "a `transaction`'s entities may differ in a property the partition key depends on",
    why: "An entity group transaction must stay in one partition; across partitions the service rejects it.",
    fix: "key by the shared properties; the others move into the row key",
  },
  messages: {
    crossPartition: (p: { transaction: string; sharing: string[]; differing: string[] }) =>
      `transaction '${p.transaction}' is not an entity group transaction: its entities share ${p.sharing.join(", ")} but may differ in ` +
      `${p.differing.join(", ")}, which the partition key depends on, so they land in different partitions and cannot commit together. ` +
      `Let the transaction decide the partition key: key by ${p.sharing.join(", ")}.`,
  },

  checkTable(ctx) {
    const { est } = tableFacts(ctx.table, ctx.props);
    if (!est.pk || !est.rk) return;
    for (const tx of ctx.table.accesses) {
      if (tx.kind !== "transaction") continue;
      const sharing = new Set(tx.sharing.map((s) => s.text));
      const differing = [...est.pk.props].filter((p) => !sharing.has(p));
      if (!differing.length) continue;
      const fix = rekeyFix(ctx, tx, est.pk, est.rk);
      // Queries the new key cannot serve (they do not pin the shared properties) move to a second table keyed for them.
      const stranded = ctx.table.accesses.filter(
        (a): a is Query =>
          a.kind === "query" && !!a.where && !tx.sharing.every((s) => a.where!.some((c) => c.op === "=" && c.property.text === s.text)),
      );
      const fixes = fix ? [fix] : [];
      if (fix && stranded.length === 1) {
        const both = secondTable(ctx, stranded[0], { edits: fix.edits, title: fix.title });
        if (both) fixes.push({ ...both, preferred: undefined });
      }
      ctx.report(
        tx.name,
        "crossPartition",
        { transaction: tx.name.text, sharing: [...sharing], differing },
        { fixes: fixes.length ? fixes : undefined },
      );
    }
  },
});

export const transactionTooLarge = defineRule({
  code: "transaction/too-large",
  severity: "error",
  family: "Transactions and entities",
  docs: {
    summary: "more than 100 operations (index rows count) or more than 4 MiB in one batch",
    why: "The service rejects a batch over its operation or size limit.",
  },
  messages: {
    tooLarge: (p: {
      transaction: string;
      service: string;
      operations?: number;
      entities: number;
      rowsPerEntity: number;
      opsLimit: number;
      bytes?: number;
      bytesLimit: number;
    }) => {
      const why: string[] = [];
      if (p.operations !== undefined)
        why.push(
          `${formatCount(p.operations)} operations (${formatCount(p.entities)} entities × ${p.rowsPerEntity} rows each); the limit is ${p.opsLimit}`,
        );
      if (p.bytes !== undefined) why.push(`≈ ${formatBytes(p.bytes)}; the limit is ${formatBytes(p.bytesLimit)}`);
      return `transaction '${p.transaction}' is too large for one ${p.service} batch: ${why.join("; ")}. Split it into smaller groups.`;
    },
  },

  checkTable(ctx) {
    const { est } = tableFacts(ctx.table, ctx.props);
    for (const tx of ctx.table.accesses) {
      if (tx.kind !== "transaction" || !tx.entities || !Number.isFinite(tx.entities.value)) continue;
      const ops = tx.entities.value * est.rowsPerEntity;
      const bytes = est.entitySize !== undefined ? ops * est.entitySize : undefined;
      const tooMany = ops > ctx.profile.batchMaxOperations;
      const tooBig = bytes !== undefined && bytes > ctx.profile.batchMaxBytes;
      if (!tooMany && !tooBig) continue;
      ctx.report(tx.name, "tooLarge", {
        transaction: tx.name.text,
        service: ctx.profile.label,
        ...(tooMany ? { operations: ops } : {}),
        entities: tx.entities.value,
        rowsPerEntity: est.rowsPerEntity,
        opsLimit: ctx.profile.batchMaxOperations,
        ...(tooBig ? { bytes } : {}),
        bytesLimit: ctx.profile.batchMaxBytes,
      });
    }
  },
});
