/**
 * What Azure Table Storage rejects and Azurite lets through, checked before
 * anything reaches Azurite — with the service's status, error code and
 * message. A batch is checked operation by operation, so that its refusal
 * names the failing operation's index as the service's does.
 */
import { SERVICES } from "@core";
import type { BatchFailure, ServiceError } from "./answers";
import type { BatchOperation } from "./batch";
import { keyTypeRejection, propertyNameRejection, propertyValueRejection } from "./properties";
import { TableRequest } from "./requests";

/** A refusal of a whole request (status, `x-ms-error-code`, first message line). */
export type Rejection = ServiceError;

const AZURE = SERVICES["azure-table"];
const SYSTEM = new Set(["PartitionKey", "RowKey", "Timestamp"]);

const INVALID_INPUT: ServiceError = { status: 400, code: "InvalidInput", message: "One of the request inputs is not valid." };
const VALUE_TOO_LARGE: ServiceError = {
  status: 400,
  code: "PropertyValueTooLarge",
  message: `The property value exceeds the maximum allowed size (${AZURE.propertyMaxBytes / 1024}KB). If the property value is a string, it is UTF-16 encoded and the maximum number of characters should be ${AZURE.propertyMaxBytes / 2048}K or less.`,
};

/** Azure's size formula: 4 + keys + per property 8 + 2 per name character + its value. */
export function entityBytes(entity: Record<string, unknown>): number {
  let size = 4;
  for (const [name, value] of Object.entries(entity)) {
    if (isAnnotation(name)) continue;
    if (name === "PartitionKey" || name === "RowKey") {
      size += 2 * String(value ?? "").length;
      continue;
    }
    if (name === "Timestamp") continue;
    size += 8 + 2 * name.length + valueBytes(value, typeOf(entity, name));
  }
  return size;
}

/** `Name@odata.type` and `odata.etag`/`odata.metadata`: annotations, not properties. */
function isAnnotation(name: string): boolean {
  return name.includes("@odata.") || name.startsWith("odata.");
}

function typeOf(entity: Record<string, unknown>, name: string): string | undefined {
  const t = entity[`${name}@odata.type`];
  return typeof t === "string" ? t : undefined;
}

function valueBytes(value: unknown, type: string | undefined): number {
  switch (type) {
    case "Edm.Binary":
      return 4 + Math.floor((String(value).length * 3) / 4);
    case "Edm.Int64":
    case "Edm.Double":
    case "Edm.DateTime":
      return 8;
    case "Edm.Guid":
      return 16;
    case "Edm.Int32":
      return 4;
    case "Edm.Boolean":
      return 1;
  }
  if (typeof value === "boolean") return 1;
  if (typeof value === "number") return Number.isInteger(value) ? 4 : 8;
  return 4 + 2 * String(value ?? "").length;
}

function badKey(key: string): boolean {
  for (let i = 0; i < key.length; i++) if (AZURE.forbiddenKeyChar!(key.charCodeAt(i))) return true;
  return false;
}

/** The first reason Azure would refuse this (non-batch) request, if any. */
export function rejection(req: TableRequest): Rejection | undefined {
  if (req.kind === "query" && req.top !== undefined && req.top > AZURE.queryPageMax) {
    return {
      status: 400,
      code: "InvalidInput",
      message: `One of the request inputs is not valid: $top=${req.top} exceeds the maximum page of ${AZURE.queryPageMax} entities.`,
    };
  }
  return entityRejection(req);
}

/** Keys, then (for writes) the body: names, typed values, property count and sizes. */
function entityRejection(req: TableRequest): Rejection | undefined {
  const writes = req.kind === "insert" || req.kind === "update";
  if (writes && req.badBody) return INVALID_INPUT;
  const e = writes ? req.entity : undefined;
  const keyType = e && keyTypeRejection(e);
  if (keyType) return keyType;
  const keys = [
    ["PartitionKey", req.partitionKey, AZURE.partitionKeyMaxBytes],
    ["RowKey", req.rowKey, AZURE.rowKeyMaxBytes],
  ] as const;
  for (const [which, key, maxBytes] of keys) {
    if (key === undefined) continue;
    if (badKey(key))
      return { status: 400, code: "OutOfRangeInput", message: `The '${which}' parameter of value '${key}' is out of range.` };
    // UTF-16: 2 bytes a character. Azure answers an over-long key as it does an over-long property.
    if (2 * key.length > maxBytes) return VALUE_TOO_LARGE;
  }
  if (!e) return undefined;
  const props = Object.keys(e).filter((k) => !SYSTEM.has(k) && !isAnnotation(k));
  for (const p of props) {
    const r = propertyNameRejection(p) ?? propertyValueRejection(p, e[p], typeOf(e, p));
    if (r) return r;
  }
  if (props.length > AZURE.maxUserProperties) {
    return {
      status: 400,
      code: "TooManyProperties",
      message: `The entity contains more properties than allowed. Each entity can include up to ${AZURE.maxUserProperties} properties to store data. Each entity also has 3 system properties.`,
    };
  }
  for (const p of props) {
    const v = e[p];
    if (typeof v === "string" && valueBytes(v, typeOf(e, p)) - 4 > AZURE.propertyMaxBytes) return VALUE_TOO_LARGE;
  }
  const size = entityBytes(e);
  if (size > AZURE.entityMaxBytes)
    return {
      status: 400,
      code: "EntityTooLarge",
      message: `The entity is larger than the maximum allowed size (1MB): it is ${size} bytes.`,
    };
  return undefined;
}

/**
 * The first reason Azure would refuse this entity group transaction, with
 * the index of the operation it fails on: a malformed operation, an entity
 * Azure refuses, an operation outside the first one's table and partition,
 * a second change to the same entity; or more than 100 operations.
 */
export function batchRejection(ops: BatchOperation[]): BatchFailure | undefined {
  if (ops.length > AZURE.batchMaxOperations) {
    return {
      index: 0,
      status: 400,
      code: "InvalidInput",
      message: `The batch request operation exceeds the maximum ${AZURE.batchMaxOperations} changes per change set.`,
    };
  }
  let group: string | undefined;
  const rows = new Set<string>();
  for (const op of ops) {
    const at = { index: op.index, ...(op.contentId !== undefined ? { contentId: op.contentId } : {}) };
    if (op.malformed) return { ...at, ...INVALID_INPUT };
    const r = entityRejection(op);
    if (r) return { ...at, ...r };
    if (op.partitionKey === undefined || op.table === undefined) continue;
    // An entity group is one table's partition; table names are case-insensitive.
    const here = `${op.table.toLowerCase()}\u0000${op.partitionKey}`;
    group ??= here;
    if (here !== group)
      return {
        ...at,
        status: 400,
        code: "CommandsInBatchActOnDifferentPartitions",
        message: "All commands in a batch must operate on same entity group.",
      };
    if (op.rowKey !== undefined) {
      if (rows.has(op.rowKey))
        return {
          ...at,
          status: 400,
          code: "InvalidDuplicateRow",
          message: "The batch request contains multiple changes with same row key. An entity can appear only once in a batch request.",
        };
      rows.add(op.rowKey);
    }
  }
  return undefined;
}
