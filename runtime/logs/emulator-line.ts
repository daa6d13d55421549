/**
 * One request through the emulator as a `StorageTableLogs` row — the
 * columns Azure Monitor's Log Analytics table has, with the values the
 * service would write: OperationName as Azure names the operation
 * (InsertEntity, QueryEntities, EntityGroupTransaction…), StatusCode and
 * StatusText, the Uri (a SAS signature masked, as Azure masks it),
 * DurationMs, ObjectKey `/account/table/pk/rk`. `tdl emulator --record FILE
 * --record-format storage-table-logs` writes one per line, so the heatmap
 * from logs is tested here against traffic whose truth is known.
 */
import type { TableRequest } from "../emulator/fidelity/requests";

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
  /** The request as the layer read it; a batch's first operation names its table and partition. */
  request: TableRequest;
  batchFirst?: TableRequest;
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

/** The row of one request (its keys in the order Log Analytics lists its columns). */
export function storageTableLogRow(e: EmulatorRequest): Record<string, string | number> {
  const r = e.request;
  const name = operationName(r, e.ifMatch);
  const keyed = e.request.kind === "batch" ? e.batchFirst : r;
  const object = [e.account, keyed?.table, keyed?.partitionKey, r.kind === "batch" ? undefined : keyed?.rowKey]
    .filter((s) => s !== undefined)
    .join("/");
  return {
    TimeGenerated: new Date(e.start).toISOString(),
    AccountName: e.account,
    Location: "local",
    Protocol: "HTTP",
    OperationName: name,
    AuthenticationType: authenticationType(e.authorization, e.target),
    StatusCode: e.status,
    StatusText: e.status >= 200 && e.status < 300 ? "Success" : (e.errorCode ?? (e.status ? `HTTP${e.status}` : "NetworkError")),
    DurationMs: Math.round(e.durationMs),
    ServerLatencyMs: Math.round(e.durationMs),
    Uri: `http://${e.host}${maskSignature(e.target)}`,
    CallerIpAddress: e.callerIp ?? "",
    CorrelationId: e.requestId ?? "",
    ClientRequestId: e.clientRequestId ?? "",
    OperationVersion: e.version ?? "",
    Category: r.kind === "delete" || (r.kind === "table" && r.method === "DELETE") ? "StorageDelete" : r.kind === "read" || r.kind === "query" || (r.kind === "table" && r.method === "GET") ? "StorageRead" : "StorageWrite",
    ObjectKey: `/${object}`,
    RequestBodySize: e.requestBytes ?? 0,
    ResponseBodySize: e.responseBytes ?? 0,
    UserAgentHeader: e.userAgent ?? "",
    ServiceType: "table",
    Type: "StorageTableLogs",
  };
}

/** Azure logs a SAS's signature as `sig=XXXXX`: the rest of the query (its `$filter`) stays readable. */
export function maskSignature(target: string): string {
  return target.replace(/([?&](?:sig|SIG|Sig)=)[^&#]*/g, "$1XXXXX");
}

function authenticationType(authorization: string | undefined, target: string): string {
  if (/[?&]sig=/i.test(target)) return "SAS";
  if (!authorization) return "Anonymous";
  if (/^Bearer /i.test(authorization)) return "OAuth";
  return "AccountKey";
}
