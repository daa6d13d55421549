/**
 * Every TypeScript rule, in reporting order, and the run over one file: the
 * shared facts (keys, classified queries) computed once, each rule inside its
 * own guard, its findings under its own code. A new rule is one more record
 * in a module and one more line here.
 */
import ts from "typescript";
import { attempt, Caught, Finding, internalFinding, PropertyInfo, reporterFor, ServiceProfile } from "../../core";
import { FileUsage } from "../calls";
import { KeyDecomposer } from "../key-parts";
import { appendOnlyKey, constantPartitionKey, invalidKeyCharacter, separatorOrder, unpaddedNumber } from "./keys";
import { crossPartitionTransaction, transactionTooLarge } from "./transactions";
import { classifyQueries, queryClass, tableScan } from "./queries";
import { readBeforeWrite } from "./read-before-write";
import { Key, TsQuery, TsRule, TsRuleContext } from "./rule";

export type { TsQuery } from "./rule";
export { queryLabel } from "./queries";

export const TS_RULES: readonly TsRule[] = [
  // Keys
  unpaddedNumber, appendOnlyKey, constantPartitionKey, invalidKeyCharacter, separatorOrder,
  // Transactions
  crossPartitionTransaction, transactionTooLarge,
  // Queries
  queryClass, tableScan,
  // Read then write
  readBeforeWrite,
];

export interface TsFileInput {
  sf: ts.SourceFile;
  checker: ts.TypeChecker;
  usage: FileUsage;
  profile: ServiceProfile;
  design(table: string | undefined): ReadonlyMap<string, PropertyInfo> | undefined;
}

/** Runs every rule on one file; returns its findings (sorted) and its classified queries (for CodeLens and the CLI). */
export function runTsRules(input: TsFileInput, rules: readonly TsRule[] = TS_RULES): { findings: Finding[]; queries: TsQuery[] } {
  const decomposer = new KeyDecomposer(input.checker);
  const keys = keysOf(input.usage, decomposer);
  const queries = classifyQueries(input.usage, input.checker);
  const findings: Finding[] = [];
  const seen = new Set<string>();
  const caught: Caught[] = [];
  for (const rule of rules) {
    const out: Finding[] = [];
    const ctx: TsRuleContext = { ...input, decomposer, keys, queries, report: reporterFor(rule, out) };
    // A rule's findings count only if it completes; a throw becomes one `internal` finding for the file.
    if (!attempt(caught, rule.code, () => rule.check(ctx))) continue;
    for (const f of out) {
      const id = `${f.code}:${f.start}:${f.end}`;
      if (!seen.has(id)) { seen.add(id); findings.push(f); }
    }
  }
  if (caught.length) findings.push(internalFinding(caught, 0, 0));
  findings.sort((a, b) => a.start - b.start || a.end - b.end);
  return { findings, queries };
}

/** Every key the file builds: entities written (alone or in transactions), and the keys of getEntity/deleteEntity. */
function keysOf(usage: FileUsage, d: KeyDecomposer): Key[] {
  const out: Key[] = [];
  const writes = [...usage.writes, ...usage.transactions.flatMap((t) => t.writes)];
  for (const w of writes) {
    if (w.partitionKey) out.push({ which: "partitionKey", expr: w.partitionKey, parts: d.parts(w.partitionKey), table: w.table, write: w });
    if (w.rowKey) out.push({ which: "rowKey", expr: w.rowKey, parts: d.parts(w.rowKey), table: w.table, write: w });
  }
  for (const k of usage.keyed) {
    out.push({ which: "partitionKey", expr: k.partitionKey, parts: d.parts(k.partitionKey), table: k.table });
    out.push({ which: "rowKey", expr: k.rowKey, parts: d.parts(k.rowKey), table: k.table });
  }
  return out;
}
