/**
 * Every TypeScript rule, in reporting order, and the run over one file: the
 * shared facts (keys, classified queries) computed once, each rule inside its
 * own guard, its findings under its own code. A new rule is one more record
 * in a module and one more line here.
 */
import ts from "typescript";
import { attempt, Caught, codesWith, PropertyInfo, rulesFailed, ServiceProfile } from "@core";
import { FileUsage, UsageFinder } from "../calls";
import type { TableSites } from "../tables";
import { appendOnlyKey, invalidKeyCharacter, separatorOrder, unpaddedNumber } from "./keys";
import { constantPartitionKey } from "./constant-key";
import { crossPartitionTransaction, transactionTooLarge } from "./transactions";
import { classifyQueries, queryClass, tableScan } from "./queries";
import { filterSyntax } from "./filter-syntax";
import { readBeforeWrite } from "./read-before-write";
import { TsQuery, TsRule, TsRuleContext, tsReporter, TsFinding } from "./rule";
import { writtenKeys } from "../written-keys";
import { designDriftKey } from "./design-drift-key";
import { designDriftQuery } from "./design-drift-query";
import { budgetNotice, untypedClient } from "./notices";
import type { DesignTable } from "../drift/design-index";

export type { TsQuery, TsFinding, RelatedLocation } from "./rule";
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
export const LOAD_RULES = codesWith(TS_RULES, "load");

/** Codes about code that has left its design (`tdl check --design-drift` makes them errors). */
export const DRIFT_CODES = codesWith(TS_RULES, "drift");

/** Runs every rule on one file; returns its findings (sorted) and its classified queries (for CodeLens and the CLI). */
export function runTsRules(input: TsFileInput, rules: readonly TsRule[] = TS_RULES): { findings: TsFinding[]; queries: TsQuery[] } {
  const decomposer = input.usageFinder.decomposer;
  const budget = decomposer.budget;
  const keys = writtenKeys(input.usage, decomposer);
  const queries = classifyQueries(input.usage, input.checker, input.sf, decomposer);
  const tableSites = (t: string | undefined) => input.tableSites?.(t);
  const findings: TsFinding[] = [];
  const seen = new Set<string>();
  const caught: Caught[] = [];
  for (const rule of rules) {
    const out: TsFinding[] = [];
    const ctx: TsRuleContext = { ...input, decomposer, keys, queries, tableSites, report: tsReporter(rule, out) };
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
