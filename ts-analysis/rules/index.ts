/**
 * Every TypeScript rule, in reporting order, and the run over one file: the
 * shared facts (keys, classified queries) computed once, each rule inside its
 * own guard, its findings under its own code. A new rule is one more record
 * in a module and one more line here.
 */
import ts from "typescript";
import { attempt, Caught, Finding, PropertyInfo, reporterFor, rulesFailed, ServiceProfile } from "@core";
import { EntityWrite, FileUsage, UsageFinder } from "../calls";
import type { TableSites } from "../tables";
import { KeyDecomposer } from "../key-parts";
import { appendOnlyKey, constantPartitionKey, invalidKeyCharacter, separatorOrder, unpaddedNumber } from "./keys";
import { crossPartitionTransaction, transactionTooLarge } from "./transactions";
import { classifyQueries, queryClass, tableScan } from "./queries";
import { filterSyntax } from "./filter-syntax";
import { readBeforeWrite } from "./read-before-write";
import { Key, TsQuery, TsRule, TsRuleContext } from "./rule";
import { designDriftKey } from "./design-drift-key";
import { designDriftQuery } from "./design-drift-query";
import { budgetNotice, untypedClient } from "./notices";
import type { DesignTable } from "../drift/design-index";

export type { TsQuery } from "./rule";
export { queryLabel } from "./queries";

export const TS_RULES: readonly TsRule[] = [
  // Keys
  unpaddedNumber,
  appendOnlyKey,
  constantPartitionKey,
  invalidKeyCharacter,
  separatorOrder,
  // Transactions
  crossPartitionTransaction,
  transactionTooLarge,
  // Queries
  queryClass,
  tableScan,
  filterSyntax,
  // Read then write
  readBeforeWrite,
  // Drift between the code and the workspace's design
  designDriftKey,
  designDriftQuery,
  // About the analysis itself
  budgetNotice,
  untypedClient,
];

export interface TsFileInput {
  sf: ts.SourceFile;
  checker: ts.TypeChecker;
  usage: FileUsage;
  profile: ServiceProfile;
  design(table: string | undefined): ReadonlyMap<string, PropertyInfo> | undefined;
  /** The whole declared table, for the drift rules (none: no drift findings). */
  designTable?(table: string | undefined): DesignTable | undefined;
  /** The finder the usage was found with (its decomposer and caches are shared with the rules). */
  usageFinder: UsageFinder;
  /** The write sites of a table across the project; none when only this file is known. */
  tableSites?(table: string | undefined): TableSites | undefined;
}

/** Rules about load (how writes spread over partitions): off in test files unless turned on. */
export const LOAD_RULES: ReadonlySet<string> = new Set(["ts/constant-partition-key", "ts/append-only-key", "ts/unpadded-number"]);

/** Runs every rule on one file; returns its findings (sorted) and its classified queries (for CodeLens and the CLI). */
export function runTsRules(input: TsFileInput, rules: readonly TsRule[] = TS_RULES): { findings: Finding[]; queries: TsQuery[] } {
  const decomposer = input.usageFinder.decomposer;
  const budget = decomposer.budget;
  const keys = keysOf(input.usage, decomposer);
  const queries = classifyQueries(input.usage, input.checker, input.sf, decomposer);
  const tableSites = (t: string | undefined) => input.tableSites?.(t);
  const findings: Finding[] = [];
  const seen = new Set<string>();
  const caught: Caught[] = [];
  for (const rule of rules) {
    const out: Finding[] = [];
    const ctx: TsRuleContext = { ...input, decomposer, keys, queries, tableSites, report: reporterFor(rule, out) };
    // A rule's findings count only if it completes; a throw becomes one `internal` finding for the file.
    // A rule the time budget stops keeps what it found: each finding stands on its own.
    if (!attempt(caught, rule.code, () => budget.guard(`rule ${rule.code}`, undefined, () => rule.check(ctx)))) continue;
    for (const f of out) {
      const id = `${f.code}:${f.start}:${f.end}`;
      if (!seen.has(id)) {
        seen.add(id);
        findings.push(f);
      }
    }
  }
  if (caught.length) findings.push(rulesFailed(caught, 0, 0));
  findings.sort((a, b) => a.start - b.start || a.end - b.end);
  return { findings, queries };
}

/** Every key the file builds: entities written (alone or in transactions), and the keys of getEntity/deleteEntity. */
function keysOf(usage: FileUsage, d: KeyDecomposer): Key[] {
  const out: Key[] = [];
  const writes = [...usage.writes, ...usage.transactions.flatMap((t) => t.writes)];
  const skipped = "the keys of some writes (not decomposed)";
  for (const w of writes) {
    d.budget.guard(skipped, undefined, () => {
      if (w.partitionKey) out.push(...keyOf("partitionKey", w.partitionKey, d.parts(w.partitionKey, 0, w.partitionKeyEnv), w));
      else if (w.declaredPartitionKey !== undefined) {
        // `partitionKey: "VISITOR"` in the entity's declared type: the key is that literal wherever the type is written.
        out.push({
          which: "partitionKey",
          expr: w.entity,
          parts: [{ kind: "value", node: w.entity, type: "string", literals: [w.declaredPartitionKey] }],
          table: w.table,
          write: w,
          declared: true,
          at: w.entity.getSourceFile() === w.call.getSourceFile() ? w.entity : w.call,
        });
      }
      if (w.rowKey) out.push(...keyOf("rowKey", w.rowKey, d.parts(w.rowKey, 0, w.rowKeyEnv), w));
    });
  }
  for (const k of usage.keyed) {
    d.budget.guard(skipped, undefined, () => {
      const pk = d.parts(k.partitionKey);
      const rk = d.parts(k.rowKey);
      out.push({ which: "partitionKey", expr: k.partitionKey, parts: pk, table: k.table, at: k.partitionKey });
      out.push({ which: "rowKey", expr: k.rowKey, parts: rk, table: k.table, at: k.rowKey });
    });
  }
  return out;
}

/**
 * A key of a write. Its expression may sit in a helper the write goes through (another file, or a
 * helper called from several places): the finding is then reported at the call made here.
 */
function keyOf(which: Key["which"], expr: ts.Expression, parts: Key["parts"], w: EntityWrite): Key[] {
  const helper = w.via && enclosingFunction(w.via);
  // A key built wholly inside the helper a write goes through is the helper's own finding, reported there, not at each call.
  if (helper && within(expr, helper) && parts.every((p) => within(p.node, helper))) return [];
  const here = expr.getSourceFile() === w.call.getSourceFile() && !(helper && within(expr, helper));
  return [{ which, expr, parts, table: w.table, write: w, at: here ? expr : w.call }];
}

function enclosingFunction(n: ts.Node): ts.Node | undefined {
  let p = n.parent;
  while (p && !ts.isFunctionLike(p)) p = p.parent;
  return p;
}

/** True when `n` is inside `scope` (the helper's body the write is made in). */
function within(n: ts.Node, scope: ts.Node | undefined): boolean {
  for (let p: ts.Node | undefined = n; p; p = p.parent) if (p === scope) return true;
  return false;
}
