/**
 * The TDL syntax tree. Every node carries `start`/`end` document offsets
 * (UTF-16), converted to LSP positions only at the edges.
 */
import type { ServiceName } from "../services";

export interface Span {
  start: number;
  end: number;
}

export interface Name extends Span {
  text: string;
}

export interface DesignFile extends Span {
  service?: { name: Name; value: ServiceName | undefined } & Span;
  tables: Table[];
}

export interface Table extends Span {
  kind: "table";
  name: Name;
  properties: Property[];
  partitionKey?: KeyDecl;
  rowKey?: KeyDecl;
  indexes: IndexDecl[];
  rows?: Estimate;
  entitySize?: Estimate;
  /** How long entities stay in the table (`retention 90d`); its value is in seconds. */
  retention?: Estimate;
  /** The storage account the table lives in (`account telemetry`); a file without it keeps every table in one account. */
  account?: AccountDecl;
  accesses: Access[];
  /** Every member in source order (for the formatter and symbols). */
  members: Member[];
  /** True when any syntax error fell inside this table. */
  hasSyntaxError: boolean;
  /** Offset of `{` and `}` (−1 when missing). */
  open: number;
  close: number;
}

export type Member = Property | KeyDecl | IndexDecl | Estimate | AccountDecl | Access;

/** `account Name`: the storage account (or Cosmos DB account) a table lives in, by a name of the design's own. */
export interface AccountDecl extends Span {
  kind: "account";
  keyword: Span;
  name: Name;
}

export type TypeName = "string" | "int" | "int64" | "double" | "bool" | "datetime" | "guid" | "binary" | "enum";

export interface TypeNode extends Span {
  name: TypeName;
  nameSpan: Span;
  /** string(len) / string(min..max): lengths; int(lo..hi): values. */
  min?: NumberLit;
  max?: NumberLit;
  /** binary(size). */
  size?: NumberLit;
  /** enum(values). */
  values?: EnumValue[];
  /** The type did not parse; the property is kept for the name checks. */
  invalid?: boolean;
}

export interface EnumValue extends Span {
  text: string;
  quoted: boolean;
}

export interface NumberLit extends Span {
  /** Interpreted value (count, size in bytes, integer…); NaN when the literal does not fit its context. */
  value: number;
  raw: string;
}

export interface StringLit extends Span {
  kind: "string";
  value: string;
  /** The token (kept to map offsets inside the value back to the document). */
  offsets?: number[];
}

export type Modifier =
  | ({ kind: "distinct"; count: NumberLit } & Span)
  | ({ kind: "unique" } & Span)
  | ({ kind: "increasing" } & Span)
  | ({ kind: "decreasing" } & Span)
  | ({ kind: "hot"; percent: NumberLit } & Span)
  | ({ kind: "charset"; chars: StringLit } & Span);

export interface Property extends Span {
  kind: "property";
  name: Name;
  type: TypeNode;
  modifiers: Modifier[];
}

export type KeyFunction = "pad" | "hash" | "bucket" | "reverse" | "date" | "lower" | "upper";

export type Part =
  StringLit | ({ kind: "ref"; name: Name } & Span) | ({ kind: "call"; fn: Name; fnName: KeyFunction | undefined; args: CallArg[] } & Span);

export type CallArg = Expr | NumberLit | StringLit;

export interface Expr extends Span {
  kind: "expr";
  parts: Part[];
}

export interface KeyDecl extends Span {
  kind: "key";
  which: "partitionKey" | "rowKey";
  keyword: Span;
  expr: Expr;
}

export interface IndexDecl extends Span {
  kind: "index";
  name: Name;
  expr: Expr;
}

export type EstimateKind = "rows" | "entitySize" | "retention";

export interface Estimate extends Span {
  kind: "estimate";
  which: EstimateKind;
  keyword: Span;
  /** A count (`rows`), bytes (`entitySize`) or seconds (`retention`). */
  value: NumberLit;
}

export interface Rate extends Span {
  /** Entities per second. */
  perSecond: number;
  raw: string;
}

export type CondOp = "=" | "<" | "<=" | ">" | ">=" | "between" | "prefix";

export interface Value extends Span {
  kind: "param" | "string" | "number";
  text: string;
}

export interface Cond extends Span {
  property: Name;
  op: CondOp;
  value: Value;
}

export interface Query extends Span {
  kind: "query";
  keyword: Span;
  name: Name;
  rate?: Rate;
  where?: Cond[];
  filter?: StringLit;
  select?: Name[];
  returns?: NumberLit;
}

export type WriteOp = "insert" | "upsert" | "update" | "merge" | "delete";

export interface Write extends Span {
  kind: "write";
  op: WriteOp;
  keyword: Span;
  name: Name;
  rate?: Rate;
  batch?: NumberLit;
  /** `sets A, B`: the properties an update, merge or upsert changes (what moves when a key renders them). */
  sets?: Name[];
}

export interface Transaction extends Span {
  kind: "transaction";
  keyword: Span;
  name: Name;
  rate?: Rate;
  entities?: NumberLit;
  sharing: Name[];
}

export type Access = Query | Write | Transaction;

export interface SyntaxError extends Span {
  message: string;
}

export interface ParseResult {
  file: DesignFile;
  errors: SyntaxError[];
}

export const TYPE_NAMES: readonly TypeName[] = ["string", "int", "int64", "double", "bool", "datetime", "guid", "binary", "enum"];
export const KEY_FUNCTIONS: readonly KeyFunction[] = ["pad", "hash", "bucket", "reverse", "date", "lower", "upper"];
export const WRITE_OPS: readonly WriteOp[] = ["insert", "upsert", "update", "merge", "delete"];
export const MEMBER_KEYWORDS = [
  "partitionKey",
  "rowKey",
  "index",
  "rows",
  "entitySize",
  "retention",
  "account",
  "query",
  "insert",
  "upsert",
  "update",
  "merge",
  "delete",
  "transaction",
] as const;
export const MODIFIERS = ["distinct", "unique", "increasing", "decreasing", "hot", "charset"] as const;

/** Walks every part of an expression, descending into call arguments. */
export function forEachPart(expr: Expr, visit: (part: Part, depth: number) => void, depth = 0): void {
  for (const part of expr.parts) {
    visit(part, depth);
    if (part.kind === "call") {
      for (const arg of part.args) if ("kind" in arg && arg.kind === "expr") forEachPart(arg, visit, depth + 1);
    }
  }
}

export function isExpr(arg: CallArg | undefined): arg is Expr {
  return !!arg && "kind" in arg && arg.kind === "expr";
}

export function isNumberLit(arg: CallArg | undefined): arg is NumberLit {
  return !!arg && !("kind" in arg);
}

export function isStringLit(arg: CallArg | undefined): arg is StringLit {
  return !!arg && "kind" in arg && arg.kind === "string";
}
