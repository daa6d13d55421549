/**
 * A log record given as an object — a JSON line, an element of a JSON
 * array, or a CSV row under its header — in any of the shapes Azure writes:
 *
 * - a Log Analytics `StorageTableLogs` row (TimeGenerated, OperationName,
 *   StatusCode, StatusText, Uri, ObjectKey, DurationMs…), as the portal,
 *   `az monitor log-analytics query` or the emulator's `--record` write it
 *   (a batch's operations, when logged, share its CorrelationId and carry
 *   OperationCount 1, 2…);
 * - a diagnostic setting's resource log (time, operationName, statusCode,
 *   statusText, durationMs, uri, and `properties` with objectKey…), one per
 *   line of the hourly blobs, or `{"records": [...]}` in older blobs;
 * - Cosmos DB's partition-key RU consumption: `AzureDiagnostics` rows of
 *   category PartitionKeyRUConsumption (partitionKey_s, requestCharge_s,
 *   collectionName_s, operationType_s), `CDBPartitionKeyRUConsumption` rows
 *   (PartitionKey, RequestCharge, CollectionName, OperationName), or the
 *   resource log (`properties.partitionKey`, `properties.requestCharge`).
 */
import { storageRecord } from "./attribute";
import { cosmosOpClass, LogRecord, Malformed, numberOf, outcome, statusOf } from "./record";
import { parseLogTime } from "./times";

type Obj = Record<string, unknown>;

/** The records of one object (an older blob's `{"records": [...]}` holds many); throws Malformed when it is none. */
export function recordsOfObject(o: unknown): LogRecord[] {
  if (!o || typeof o !== "object" || Array.isArray(o)) throw new Malformed("not a JSON object");
  const records = (o as Obj).records;
  if (Array.isArray(records)) return records.map((r) => recordOfObject(r));
  return [recordOfObject(o)];
}

/** The record of one row or resource log; throws Malformed when it has no time or is no request. */
export function recordOfObject(value: unknown): LogRecord {
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new Malformed("not a JSON object");
  const o = value as Obj;
  const props = (o.properties && typeof o.properties === "object" ? o.properties : {}) as Obj;
  const rawTime = o.TimeGenerated ?? o.time ?? o.timeGenerated;
  const time = parseLogTime(rawTime);
  if (time === undefined) throw new Malformed(rawTime === undefined ? "no TimeGenerated or time" : "its time is not a time");
  if (isCosmos(o)) return cosmosRecord(o, props, time);
  const service = str(o.ServiceType ?? props.serviceType);
  const operation = str(o.OperationName ?? o.operationName) ?? "";
  const uri = str(o.Uri ?? o.uri ?? props.requestUrl);
  if (!operation && !uri) throw new Malformed("no OperationName and no Uri");
  // Blob and queue lines in the same export are no table's traffic (not malformed either).
  if (service && service.toLowerCase() !== "table")
    return { time, operation: operation || service, op: "other", throttled: false, failed: false };
  return storageRecord({
    time,
    operation,
    status: statusOf(o.StatusCode ?? o.statusCode),
    statusText: str(o.StatusText ?? o.statusText),
    uri,
    objectKey: str(o.ObjectKey ?? props.objectKey),
    durationMs: numberOf(o.DurationMs ?? o.durationMs),
    correlationId: str(o.CorrelationId ?? o.correlationId),
    operationIndex: numberOf(o.OperationCount ?? o.operationCount ?? props.operationCount),
  });
}

function isCosmos(o: Obj): boolean {
  const category = o.Category ?? o.category;
  return category === "PartitionKeyRUConsumption" || o.Type === "CDBPartitionKeyRUConsumption" || "partitionKey_s" in o;
}

function cosmosRecord(o: Obj, props: Obj, time: number): LogRecord {
  const rawKey = o.partitionKey_s ?? o.PartitionKey ?? props.partitionKey;
  if (rawKey === undefined || rawKey === null) throw new Malformed("a partition-key RU record without a partition key");
  const category = str(o.Category ?? o.category);
  const named = str(o.operationType_s ?? props.operationType ?? o.OperationName ?? o.operationName);
  const operation = named && named !== category ? named : "(unnamed)";
  const status = statusOf(o.statusCode_s ?? o.StatusCode ?? props.statusCode);
  const requestUnits = numberOf(o.requestCharge_s ?? o.RequestCharge ?? props.requestCharge);
  const table = str(o.collectionName_s ?? o.CollectionName ?? props.collectionName);
  return {
    time,
    ...(table ? { table } : {}),
    partitionKey: cosmosKey(rawKey),
    via: "log",
    operation,
    op: cosmosOpClass(operation),
    status,
    ...outcome(status, undefined),
    ...(requestUnits !== undefined ? { requestUnits } : {}),
  };
}

/** Cosmos DB logs a partition key as a JSON array (`["Seattle"]`): its one value; a hierarchical key's values joined by `/`. */
function cosmosKey(raw: unknown): string {
  const text = typeof raw === "string" ? raw : JSON.stringify(raw);
  if (!text.startsWith("[")) return text;
  try {
    const values: unknown = JSON.parse(text);
    if (Array.isArray(values) && values.length) return values.map((v) => (typeof v === "string" ? v : JSON.stringify(v))).join("/");
  } catch {
    // Not JSON after all: the text is the key.
  }
  return text;
}

function str(v: unknown): string | undefined {
  return typeof v === "string" && v !== "" ? v : typeof v === "number" ? String(v) : undefined;
}
