/**
 * A Table Storage log line — whichever log it came from — as a record: its
 * operation's class and the partition it touched, from the most direct
 * evidence the line holds. In order: the keys in the URI (point
 * operations), the object key (inserts and batches, whose keys travel in
 * the body), the PartitionKey the `$filter` pins, and for a query page
 * that pins none the partition its continuation token starts it in. A line
 * with none of these has no partition: a query over several partitions
 * (with the PartitionKey range its filter bounds, if it does), or a batch
 * whose object key does not name one.
 */
import { readFilter } from "./filter-keys";
import { KeySource, LogRecord, OpClass, outcome, tableOpClass } from "./record";
import { keysFromObjectKey, keysFromUri, UriKind } from "./uri-keys";

/** The fields every Table Storage log has, read from its own column names. */
export interface StorageFields {
  time: number;
  operation: string;
  status?: number;
  statusText?: string;
  uri?: string;
  objectKey?: string;
  durationMs?: number;
  correlationId?: string;
  /** OperationCount / operation-count: 0 for the request, 1… for a batch's operations. */
  operationIndex?: number;
}

const CLASS_OF_URI: Record<UriKind, OpClass> = { entity: "other", query: "query", batch: "batch", tables: "other", other: "other" };

/** The record of one Table Storage log line. */
export function storageRecord(f: StorageFields): LogRecord {
  const uri = f.uri ? keysFromUri(f.uri) : { kind: "other" as const };
  const named = tableOpClass(f.operation);
  // Without a name, what the URI shows (a table query, a batch); a name no reader knows is "other".
  const op = named ?? (f.operation ? "other" : CLASS_OF_URI[uri.kind]);
  const record: LogRecord = {
    time: f.time,
    operation: f.operation || "(unnamed)",
    op,
    status: f.status,
    ...outcome(f.status, f.statusText),
    ...(f.durationMs !== undefined ? { durationMs: f.durationMs } : {}),
    ...(f.correlationId ? { correlationId: f.correlationId } : {}),
    ...(f.operationIndex !== undefined ? { operationIndex: f.operationIndex } : {}),
  };
  // Table and service operations (CreateTable, QueryTables, GetTableACL…) touch no partition; an unknown name on an entity's URI does.
  if (op === "other" && uri.kind !== "entity") return record;
  const object = f.objectKey ? keysFromObjectKey(f.objectKey) : {};
  record.table = uri.table ?? object.table;
  let pk: string | undefined;
  let via: KeySource | undefined;
  if (uri.kind === "entity") [pk, via] = [uri.partitionKey, "uri"];
  else if (object.partitionKey !== undefined) [pk, via] = [object.partitionKey, "object-key"];
  if (op === "query" && uri.filter !== undefined) {
    const reading = readFilter(uri.filter);
    record.queryClass = reading.queryClass;
    if (pk === undefined && reading.partitionKey !== undefined) [pk, via] = [reading.partitionKey, "filter"];
    else if (reading.range) record.range = reading.range;
  } else if (op === "query") record.queryClass = "table-scan";
  if (pk === undefined && op === "query" && uri.nextPartitionKey !== undefined) [pk, via] = [uri.nextPartitionKey, "continuation"];
  if (pk !== undefined) {
    record.partitionKey = pk;
    record.via = via;
    delete record.range;
  }
  return record;
}
