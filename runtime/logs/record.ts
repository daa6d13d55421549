/**
 * One request as the service's log tells it, whatever log it came from
 * (Azure Monitor's StorageTableLogs, classic Storage Analytics `$logs`,
 * Cosmos DB's partition-key RU consumption): when, which table and
 * partition (when the line says), what kind of operation, and whether the
 * service throttled it. The readers make these; the heatmap adds them up.
 */

/**
 * What an operation does to a partition: reads an entity, runs a query
 * (one page of it: every page is its own request and its own line), writes
 * one entity, runs an entity group transaction (one request, one partition,
 * up to 100 entities), or something else (table and service operations, and
 * names no reader knows).
 */
export type OpClass = "read" | "query" | "write" | "batch" | "other";

/** How the partition of a line was known. */
export type KeySource = "uri" | "object-key" | "filter" | "continuation" | "log";

export interface LogRecord {
  /** When the request was received, ms since the epoch (UTC). */
  time: number;
  table?: string;
  /** Undefined when the line does not say which partition (a query over several, a batch whose body is not logged). */
  partitionKey?: string;
  operation: string;
  op: OpClass;
  status?: number;
  /** Refused for load: 503 Server Busy (Table Storage), 429 Too Many Requests (Cosmos DB). */
  throttled: boolean;
  /** Answered with another error (4xx, 5xx). */
  failed: boolean;
  via?: KeySource;
  /** Queries: the class of the page's filter (point, row-range, partition-range, table-scan). */
  queryClass?: string;
  /** Queries over a PartitionKey range (and no one partition): the range its filter bounds. */
  range?: { from?: string; to?: string };
  /** The request's id (StorageTableLogs' CorrelationId, `$logs`' request-id-header): a batch and its operations share it. */
  correlationId?: string;
  /** Which of the request's logged operations the line is (0 the request itself; a batch's operations 1, 2…). */
  operationIndex?: number;
  /** Cosmos DB: the request units charged. */
  requestUnits?: number;
  durationMs?: number;
}

/** Table Storage's logged operations (StorageTableLogs' OperationName, `$logs`' operation-type) and what each does. */
const TABLE_OPERATIONS: Record<string, OpClass> = {
  QueryEntity: "read",
  QueryEntities: "query",
  InsertEntity: "write",
  UpdateEntity: "write",
  MergeEntity: "write",
  DeleteEntity: "write",
  InsertOrReplaceEntity: "write",
  InsertOrMergeEntity: "write",
  EntityGroupTransaction: "batch",
};

/** Cosmos DB's data-plane operation names (PartitionKeyRUConsumption's OperationName / operationType). */
const COSMOS_OPERATIONS: Record<string, OpClass> = {
  read: "read",
  query: "query",
  readfeed: "query",
  create: "write",
  insert: "write",
  upsert: "write",
  replace: "write",
  delete: "write",
  patch: "write",
  batch: "batch",
};

/** The class of a Table Storage operation name; undefined when the name is not an entity operation. */
export function tableOpClass(name: string): OpClass | undefined {
  return TABLE_OPERATIONS[name];
}

/** The class of a Cosmos DB operation name (case-insensitive); "other" for stored procedures and the rest. */
export function cosmosOpClass(name: string): OpClass {
  return COSMOS_OPERATIONS[name.toLowerCase()] ?? "other";
}

const THROTTLE_TEXT = /serverbusy|throttl|toomanyrequests/i;
/** Status texts of requests that did not succeed (Storage Analytics' status messages: NetworkError, ClientOtherError…). */
const ERROR_TEXT = /error|fail|timeout/i;

/**
 * Throttled and failed, from the status code and the status text (either
 * may be missing). Without a status code (0: the client went away before
 * an answer, as `NetworkError` lines say), the text decides.
 */
export function outcome(status: number | undefined, text: string | undefined): { throttled: boolean; failed: boolean } {
  const throttled = status === 503 || status === 429 || (!!text && THROTTLE_TEXT.test(text));
  const failed = !throttled && (status !== undefined ? status >= 400 : !!text && ERROR_TEXT.test(text));
  return { throttled, failed };
}

/** A status code from a number or a numeric text; undefined for anything else. */
export function statusOf(v: unknown): number | undefined {
  const n = typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : NaN;
  return Number.isInteger(n) && n >= 100 && n <= 599 ? n : undefined;
}

/** A finite number from a number or a numeric text. */
export function numberOf(v: unknown): number | undefined {
  const n = typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
}

/** A line that is no log record of a kind the readers know: counted and skipped, with why. */
export class Malformed extends Error {}
