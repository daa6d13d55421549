/**
 * What a file does with `@azure/data-tables`, as the rules read it: entity
 * writes with their keys, point reads and deletes, listings with the ways
 * their options may be, transactions, and calls the analysis cannot see.
 */
import ts from "typescript";
import type { Env } from "./values";
import type { TableSource } from "./clients";

export interface EntityWrite {
  call: ts.CallExpression;
  /** The SDK method, or the operation of a transaction action ("create", "upsert"…). */
  method: string;
  /** The expression passed as the entity. */
  entity: ts.Expression;
  /** The object literal that builds the entity, when it can be found. */
  object?: ts.ObjectLiteralExpression;
  partitionKey?: ts.Expression;
  rowKey?: ts.Expression;
  /** The partition key the entity's declared type fixes (`partitionKey: "VISITOR"`), when no expression builds it. */
  declaredPartitionKey?: string;
  /** The update mode argument's text ("Merge" or "Replace"), for updateEntity/upsertEntity. */
  mode?: string;
  /** The options argument (where an `etag` goes). */
  options?: ts.Expression;
  /** The bindings of the helper's parameters when the write is made inside a helper called here (`via`). */
  env?: Env;
  partitionKeyEnv?: Env;
  rowKeyEnv?: Env;
  /** The SDK call inside a helper, when `call` is the call of that helper (the write is made through it). */
  via?: ts.CallExpression;
  /** The table the client was made for, when its name is a literal. */
  table?: string;
  /** Where the table's name comes from when it is not a literal (one source, one table). */
  tableSource?: TableSource;
  /** Written through a TableTransaction or an actions array. */
  inTransaction?: ts.CallExpression;
}

export interface KeyedCall {
  call: ts.CallExpression;
  method: "getEntity" | "deleteEntity";
  partitionKey: ts.Expression;
  rowKey: ts.Expression;
  table?: string;
}

/** One way a `listEntities` call may be made: with a filter, with none (every entity), or with options not known statically. */
export interface ListOption {
  /** The filter expression (evaluated where `env` binds the parameters); undefined when this way has no filter. */
  filter?: ts.Expression;
  env?: Env;
  /** The options come from outside what can be followed (a parameter, a spread): why. */
  unknown?: string;
  /** No filter on the paths where a later conditional write did not set one (`const o = {}; if (q) o.filter = …`). */
  soft?: boolean;
}

export interface ListCall {
  call: ts.CallExpression;
  /** Each way the call may be made (the branches of a conditional, each element of an array walked…). */
  options: ListOption[];
  table?: string;
}

export interface TransactionCall {
  call: ts.CallExpression;
  /** The actions' entities, where known. */
  writes: EntityWrite[];
  /** Statically known number of actions (undefined when it depends on run time). */
  count?: number;
  /** Where the count comes from: the push or call in a loop that adds the most actions. */
  countAt?: ts.Node;
  /** `countAt` fills another array the actions are made from, elsewhere than where they are added. */
  countFilled?: boolean;
}

export interface FileUsage {
  writes: EntityWrite[];
  keyed: KeyedCall[];
  lists: ListCall[];
  transactions: TransactionCall[];
  /** SDK method names called on receivers typed `any` that could not be traced to a client: why, per call. */
  untyped: Array<{ call: ts.CallExpression; why: string }>;
  /** SDK calls on receivers typed `any` recognised by the SDK's call shape: how, per call (said in a hint). */
  recognised: Array<{ call: ts.CallExpression; how: string }>;
}
