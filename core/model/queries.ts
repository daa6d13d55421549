/**
 * Every query of a table, classified once: `where` queries through the key
 * mapping, `filter` queries through the OData parser and classifier.
 */
import { Query, Table } from "../tdl/ast";
import { stringValueOffset } from "../tdl/lexer";
import { Classification } from "../odata/classes";
import { classifyFilter, FilterContext } from "../odata/classify";
import { parseFilter } from "../odata/parser";
import { classifyWhere, WhereClassification } from "./where";
import { TableEstimates } from "./estimates";
import { PropertyInfo } from "./properties";

export interface QueryAnalysis {
  query: Query;
  classification?: Classification;
  /** `where` queries: how the conditions mapped onto the keys. */
  mapping?: WhereClassification;
  /** A filter that does not parse, with offsets in the design text. */
  filterError?: { message: string; start: number; end: number };
  /**
   * What the classifier threw on this query, if it did: the query then has no
   * classification, the table's other queries and rules are unaffected, and
   * the analyzer reports it as `internal` on the query's name.
   */
  failure?: unknown;
}

/** What the OData classifier needs of a design table: its size, partitions and the properties' distinct values. */
export function filterContext(est: TableEstimates, props: ReadonlyMap<string, PropertyInfo>, returns?: number): FilterContext {
  return {
    rows: est.rows,
    rowsPerEntity: est.rowsPerEntity,
    partitions: est.partitions,
    returns,
    distinct: (name) => props.get(name)?.distinct,
  };
}

export function analyzeQueries(table: Table, est: TableEstimates, props: ReadonlyMap<string, PropertyInfo>): QueryAnalysis[] {
  const indexNames = table.indexes.map((ix) => ix.name.text);
  return table.accesses
    .filter((a): a is Query => a.kind === "query")
    .map((query) => {
      try {
        return analyzeQuery(query, est, indexNames, props);
      } catch (failure) {
        return { query, failure };
      }
    });
}

function analyzeQuery(query: Query, est: TableEstimates, indexNames: string[], props: ReadonlyMap<string, PropertyInfo>): QueryAnalysis {
  if (query.where) {
    const mapping = classifyWhere(query, est, indexNames, props);
    return { query, classification: mapping, mapping };
  }
  if (!query.filter) return { query };
  const parsed = parseFilter(query.filter.value);
  if (!parsed.ok) {
    const lit = query.filter;
    const start = stringValueOffset(lit, parsed.error.start);
    const end = parsed.error.end > parsed.error.start ? stringValueOffset(lit, parsed.error.end - 1) + 1 : start;
    return { query, filterError: { message: `filter: ${parsed.error.message}`, start, end: Math.max(end, start) } };
  }
  const returns = query.returns && Number.isFinite(query.returns.value) ? query.returns.value : undefined;
  const classification = classifyFilter(parsed.expr, filterContext(est, props, returns));
  return { query, classification };
}
