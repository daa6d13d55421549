/**
 * Plain, serialisable shapes of the account layer: connections, entities
 * with typed values, query results and their cost. They cross the webview
 * protocol, so nothing here holds a credential.
 */

import type { TypeName } from "@core/tdl/ast";

export type EdmType = "String" | "Int32" | "Int64" | "Double" | "Boolean" | "DateTime" | "Guid" | "Binary";

/** How each type a design declares is stored (an enum is its member's name): the filter editor's and the design's completions type literals by it. */
export const EDM_OF_TYPE: Record<TypeName, EdmType> = {
  string: "String",
  enum: "String",
  int: "Int32",
  int64: "Int64",
  double: "Double",
  bool: "Boolean",
  datetime: "DateTime",
  guid: "Guid",
  binary: "Binary",
};

/** A property value with its Edm type, as text (Int64 and Binary do not fit JSON numbers). */
export interface TypedValue {
  type: EdmType;
  value: string;
}

export interface EntityRow {
  partitionKey: string;
  rowKey: string;
  etag?: string;
  timestamp?: string;
  properties: Record<string, TypedValue>;
}

export type ConnectionKind = "emulator" | "connection-string" | "sas" | "entra-id";

/** What global state and the webview may know of a connection: never its secret. */
export interface ConnectionInfo {
  id: string;
  name: string;
  kind: ConnectionKind;
  /** The table endpoint, e.g. http://127.0.0.1:10002/devstoreaccount1: never a query (a SAS lives in the secret). */
  endpoint: string;
}

export interface QueryCost {
  requests: number;
  pages: number;
  continuationTokens: number;
  entities: number;
  elapsedMs: number;
}

export interface QueryResult {
  entities: EntityRow[];
  cost: QueryCost;
  /** More results exist beyond the row limit: continue with this token. */
  continuationToken?: string;
}

export interface PageResult {
  entities: EntityRow[];
  continuationToken?: string;
}

export const EDM_TYPES: readonly EdmType[] = ["String", "Int32", "Int64", "Double", "Boolean", "DateTime", "Guid", "Binary"];
