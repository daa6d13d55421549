/**
 * Everything derived from one table's design — estimates, classified
 * queries, load — computed once per parsed table and shared by the rules,
 * hovers, CodeLenses and the CLI.
 */
import { Table } from "../tdl/ast";
import { tableEstimates, TableEstimates } from "./estimates";
import { estimateLoad, LoadEstimate } from "./peak-load";
import { PropertyInfo } from "./properties";
import { analyzeQueries, QueryAnalysis } from "./queries";

export interface TableFacts {
  est: TableEstimates;
  queries: QueryAnalysis[];
  load: LoadEstimate;
}

const memo = new WeakMap<Table, TableFacts>();

export function tableFacts(table: Table, props: ReadonlyMap<string, PropertyInfo>): TableFacts {
  let facts = memo.get(table);
  if (!facts) {
    const est = tableEstimates(table, props);
    const queries = analyzeQueries(table, est, props);
    facts = { est, queries, load: estimateLoad(table.accesses, est, queries) };
    memo.set(table, facts);
  }
  return facts;
}
