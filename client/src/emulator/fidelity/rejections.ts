/**
 * What Azure Table Storage rejects and Azurite lets through, checked before
 * anything reaches Azurite — with the service's status and error code.
 */
import { PROFILES } from "../../../../server/src/model/profiles";
import { TableRequest } from "./requests";

export interface Rejection {
  status: number;
  code: string;
  message: string;
}

const AZURE = PROFILES["azure-table"];
const SYSTEM = new Set(["PartitionKey", "RowKey", "Timestamp"]);

/** Azure's size formula: 4 + keys + per property 8 + 2 per name character + its value. */
export function entityBytes(entity: Record<string, unknown>): number {
  let size = 4;
  for (const [name, value] of Object.entries(entity)) {
    if (name.includes("@odata.")) continue;
    if (name === "PartitionKey" || name === "RowKey") { size += 2 * String(value ?? "").length; continue; }
    if (name === "Timestamp") continue;
    const type = entity[`${name}@odata.type`];
    size += 8 + 2 * name.length + valueBytes(value, typeof type === "string" ? type : undefined);
  }
  return size;
}

function valueBytes(value: unknown, type: string | undefined): number {
  switch (type) {
    case "Edm.Binary": return 4 + Math.floor((String(value).length * 3) / 4);
    case "Edm.Int64": case "Edm.Double": case "Edm.DateTime": return 8;
    case "Edm.Guid": return 16;
    case "Edm.Int32": return 4;
    case "Edm.Boolean": return 1;
  }
  if (typeof value === "boolean") return 1;
  if (typeof value === "number") return Number.isInteger(value) ? 4 : 8;
  return 4 + 2 * String(value ?? "").length;
}

function badKey(key: string | undefined): boolean {
  return key !== undefined && [...key].some((ch) => AZURE.forbiddenKeyChar!(ch.charCodeAt(0)));
}

function reject(status: number, code: string, message: string): Rejection {
  return { status, code, message };
}

/** The first reason Azure would refuse this request, if any. */
export function rejection(req: TableRequest): Rejection | undefined {
  if (req.kind === "batch") return batchRejection(req.operations ?? []);
  if (req.kind === "query" && req.top !== undefined && req.top > AZURE.queryPageMax) {
    return reject(400, "InvalidInput", `One of the request inputs is not valid: $top=${req.top} exceeds the maximum page of ${AZURE.queryPageMax} entities.`);
  }
  return entityRejection(req);
}

function entityRejection(req: TableRequest): Rejection | undefined {
  for (const [which, key] of [["PartitionKey", req.partitionKey], ["RowKey", req.rowKey]] as const) {
    if (badKey(key)) return reject(400, "OutOfRangeInput", `The '${which}' value contains a character keys may not hold (/ \\ # ? or a control character).`);
    if (key !== undefined && 2 * key.length > AZURE.partitionKeyMaxBytes) return reject(400, "OutOfRangeInput", `The '${which}' value is longer than ${AZURE.partitionKeyMaxBytes} bytes.`);
  }
  const e = req.entity;
  if (!e || (req.kind !== "insert" && req.kind !== "update")) return undefined;
  const props = Object.keys(e).filter((k) => !SYSTEM.has(k) && !k.includes("@odata."));
  if (props.length > AZURE.maxUserProperties) {
    return reject(400, "TooManyProperties", `The entity has ${props.length} properties; the maximum is ${AZURE.maxUserProperties} besides PartitionKey, RowKey and Timestamp.`);
  }
  for (const p of props) {
    const v = e[p];
    if (typeof v === "string" && valueBytes(v, typeof e[`${p}@odata.type`] === "string" ? String(e[`${p}@odata.type`]) : undefined) - 4 > AZURE.propertyMaxBytes) {
      return reject(400, "PropertyValueTooLarge", `The property '${p}' is larger than ${AZURE.propertyMaxBytes / 1024} KiB.`);
    }
  }
  const size = entityBytes(e);
  if (size > AZURE.entityMaxBytes) return reject(400, "EntityTooLarge", `The entity is ${size} bytes; the maximum is ${AZURE.entityMaxBytes} (1 MiB).`);
  return undefined;
}

function batchRejection(ops: TableRequest[]): Rejection | undefined {
  if (ops.length > AZURE.batchMaxOperations) {
    return reject(400, "InvalidInput", `The batch has ${ops.length} operations; an entity group transaction holds at most ${AZURE.batchMaxOperations}.`);
  }
  const pks = new Set(ops.map((o) => o.partitionKey).filter((k) => k !== undefined));
  if (pks.size > 1) {
    return reject(400, "CommandsInBatchActOnDifferentPartitions", "All commands in a batch must operate on the same partition (an entity group transaction spans one PartitionKey).");
  }
  for (const op of ops) {
    const r = entityRejection(op);
    if (r) return r;
  }
  return undefined;
}
