/**
 * One request through the emulator as a `StorageTableLogs` row — the
 * columns Azure Monitor's Log Analytics table has, with the values the
 * service would write: OperationName as Azure names the operation
 * (InsertEntity, QueryEntities, EntityGroupTransaction…), StatusCode and
 * StatusCode and StatusText (Storage Analytics' status messages: Success,
 * ThrottlingError, ClientOtherError, NetworkError…), the Uri (a SAS
 * signature masked, as Azure masks it), DurationMs, ObjectKey
 * `/account/table/pk/rk`, CorrelationId (the request id) and
 * OperationCount. A batch is its request's row (OperationCount 0) and a
 * row per operation of its change set (OperationCount 1, 2…, the same
 * CorrelationId, the batch's status). `tdl emulator --record FILE
 * --record-format storage-table-logs` writes one per line, so the heatmap
 * from logs is tested here against traffic whose truth is known.
 */
import { randomUUID } from "node:crypto";
import type { TableRequest } from "./requests";
import type { BatchOperation } from "./batch";

/** What the fidelity layer knows of a request once it is answered. */
export interface EmulatorRequest {
  /** When it was received (ms since the epoch). */
  start: number;
  durationMs: number;
  method: string;
  /** The request target as received (path and query). */
  target: string;
  /** The Host header (`127.0.0.1:10002`). */
  host: string;
  account: string;
  /** The answer's status (0: the client left before one was sent). */
  status: number;
  /** The answer's `x-ms-error-code`. */
  errorCode?: string;
  requestId?: string;
  clientRequestId?: string;
  version?: string;
  userAgent?: string;
  /** The request carried If-Match (an update or merge, not an insert-or-…). */
  ifMatch: boolean;
  authorization?: string;
  callerIp?: string;
  requestBytes?: number;
  responseBytes?: number;
  /** The request as the layer read it. */
  request: TableRequest;
  /** A batch's operations (the first with a table names the batch's table and partition). */
  operations?: readonly BatchOperation[];
}

/** Azure's name for the operation a request is. */
export function operationName(r: TableRequest, ifMatch: boolean): string {
  switch (r.kind) {
    case "insert":
      return "InsertEntity";
    case "update":
      if (r.method === "PUT") return ifMatch ? "UpdateEntity" : "InsertOrReplaceEntity";
      if (r.method === "MERGE" || r.method === "PATCH") return ifMatch ? "MergeEntity" : "InsertOrMergeEntity";
      return "UpdateEntity";
    case "delete":
      return "DeleteEntity";
    case "read":
      return "QueryEntity";
    case "query":
      return "QueryEntities";
    case "batch":
      return "EntityGroupTransaction";
    case "table":
      return r.method === "POST" ? "CreateTable" : r.method === "DELETE" ? "DeleteTable" : "QueryTables";
    default:
      return r.method === "OPTIONS" ? "PreflightRequest" : "Unknown";
  }
}

type Row = Record<string, string | number>;

/** The rows of one request: its own, and for a batch one per operation of its change set. */
export function storageTableLogRows(e: EmulatorRequest): Row[] {
  const row = storageTableLogRow(e);
  if (e.request.kind !== "batch" || !e.operations?.length) return [row];
  return [
    row,
    ...e.operations.map((op, i) => ({
      ...row,
      OperationName: operationName(op, !!op.ifMatch),
      Category: categoryOf(op),
      Uri: `http://${e.host}/${e.account}/${entityPath(op)}`,
      ObjectKey: objectKey(e.account, op.table, op.partitionKey, op.rowKey),
      OperationCount: i + 1,
      RequestBodySize: 0,
      ResponseBodySize: 0,
    })),
  ];
}

/** The row of one request (its keys in the order Log Analytics lists its columns). */
export function storageTableLogRow(e: EmulatorRequest): Row {
  const r = e.request;
  const keyed = r.kind === "batch" ? e.operations?.find((o) => o.table) : r;
  const sas = /[?&]sig=/i.test(e.target);
  return {
    TimeGenerated: new Date(e.start).toISOString(),
    AccountName: e.account,
    Location: "local",
    Protocol: "HTTP",
    OperationName: operationName(r, e.ifMatch),
    AuthenticationType: sas ? "SAS" : !e.authorization ? "Anonymous" : /^Bearer /i.test(e.authorization) ? "OAuth" : "AccountKey",
    StatusCode: e.status,
    StatusText: statusText(e.status, sas ? "SAS" : !e.authorization ? "Anonymous" : ""),
    DurationMs: Math.round(e.durationMs),
    ServerLatencyMs: Math.round(e.durationMs),
    Uri: `http://${e.host}${maskSignature(e.target)}`,
    CallerIpAddress: e.callerIp ?? "",
    // Every request has one (a batch's rows are joined by it), also one the upstream answered without.
    CorrelationId: e.requestId || randomUUID(),
    ClientRequestId: e.clientRequestId ?? "",
    OperationVersion: e.version ?? "",
    Category: categoryOf(r),
    ObjectKey: objectKey(e.account, keyed?.table, keyed?.partitionKey, r.kind === "batch" ? undefined : keyed?.rowKey),
    OperationCount: 0,
    RequestBodySize: e.requestBytes ?? 0,
    ResponseBodySize: e.responseBytes ?? 0,
    UserAgentHeader: e.userAgent ?? "",
    ServiceType: "table",
    Type: "StorageTableLogs",
  };
}

function objectKey(account: string, table?: string, pk?: string, rk?: string): string {
  return "/" + [account, table, pk, rk].filter((s) => s !== undefined).join("/");
}

function categoryOf(r: TableRequest): string {
  if (r.kind === "delete" || (r.kind === "table" && r.method === "DELETE")) return "StorageDelete";
  return r.kind === "read" || r.kind === "query" || (r.kind === "table" && r.method === "GET") ? "StorageRead" : "StorageWrite";
}

/** An operation's resource: `Table(PartitionKey='a',RowKey='b')`, or `Table` for an insert (its keys are in its body). */
function entityPath(op: TableRequest): string {
  const quote = (v: string) => encodeURIComponent(v.replace(/'/g, "''"));
  if (op.kind === "insert" || op.partitionKey === undefined || op.rowKey === undefined) return op.table ?? "";
  return `${op.table}(PartitionKey='${quote(op.partitionKey)}',RowKey='${quote(op.rowKey)}')`;
}

/**
 * Storage Analytics' status message of an answer: Success, ThrottlingError
 * (503), ClientOtherError (other 4xx), ServerOtherError (other 5xx),
 * NetworkError (no answer: the client went away) — prefixed with SAS or
 * Anonymous as the service prefixes them.
 */
export function statusText(status: number, auth: "SAS" | "Anonymous" | ""): string {
  const text =
    status === 0
      ? "NetworkError"
      : status < 400
        ? "Success"
        : status === 503
          ? "ThrottlingError"
          : status < 500
            ? "ClientOtherError"
            : "ServerOtherError";
  return `${auth}${text}`;
}

/** Azure logs a SAS's signature as `sig=XXXXX`: the rest of the query (its `$filter`) stays readable. */
export function maskSignature(target: string): string {
  return target.replace(/([?&](?:sig|SIG|Sig)=)[^&#]*/g, "$1XXXXX");
}
