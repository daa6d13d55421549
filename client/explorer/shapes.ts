/**
 * The declared shape of every explorer request: what the host accepts from
 * the page before any handler runs. The compiler checks that each request
 * has a shape and that the shape yields exactly the request's params.
 */
import { EDM_TYPES, EntityRow, TypedValue } from "@protocol";
import { EntityVersion, LIMITS, NoParams } from "@protocol/pages";
import type { ImportChoices } from "@protocol/transfer";
import type { Shapes } from "../webview-host/host";
import { dictionary, Fields, integer, list, object, oneOf, optional, Shape, text } from "../webview-host/shape";

const none: Fields<NoParams> = {};

/** Table names of every profile (Azure's 3–63 alphanumerics, Tablestore's underscores) and nothing that could leave the URL path. */
export const tableName = text({
  min: 1,
  max: 255,
  pattern: /^[A-Za-z_][A-Za-z0-9_]*$/,
  rule: "is not a table name (letters, digits and underscores, not starting with a digit)",
});

const key = text({ max: LIMITS.key });

/** An entity tag exactly as the service sends it (`W/"…"` or `"…"`): never `*`, which would match any version, and never a list. */
export const etag = text({
  min: 1,
  max: LIMITS.etag,
  refuse: (s) =>
    s.trim() === "*"
      ? "a wildcard ('*') matches any version: send the ETag the entity was read with"
      : /^(?:W\/)?"[^"\s,]*"$/.test(s)
        ? undefined
        : 'is not an ETag as the service sends it (W/"…")',
});

/** Names the host maps itself (keys, system fields) or that JavaScript treats specially. */
const RESERVED = new Set(["PartitionKey", "RowKey", "Timestamp", "partitionKey", "rowKey", "timestamp", "etag", "__proto__"]);

export const propertyName = text({
  min: 1,
  max: LIMITS.propertyName,
  pattern: /^[^\u0000-\u001f\u007f]*$/,
  rule: "contains a control character",
  refuse: (s) =>
    RESERVED.has(s) || s.startsWith("odata.") ? "is reserved: PartitionKey, RowKey, Timestamp and ETag are not properties" : undefined,
});

/** A `$select` name: any property, the keys and Timestamp included. */
const selectName = text({
  min: 1,
  max: LIMITS.propertyName,
  pattern: /^[^\u0000-\u001f\u007f,]*$/,
  rule: "contains a control character or a comma",
});

const typedValue: Shape<TypedValue> = object<TypedValue>({ type: oneOf(EDM_TYPES), value: text({ max: LIMITS.value }) });

export const entityRow: Shape<EntityRow> = object<EntityRow>({
  partitionKey: key,
  rowKey: key,
  etag: optional(etag),
  timestamp: optional(text({ max: 64 })),
  properties: dictionary(propertyName, typedValue, LIMITS.properties),
});

const entityVersion = object<EntityVersion>({ partitionKey: key, rowKey: key, etag });
const filter = text({ max: LIMITS.filter });
const connectionId = text({ min: 1, max: LIMITS.connectionId });
const format = oneOf(["json", "csv"] as const);
const scope = oneOf(["result", "table"] as const);
/** The name a page gives a long operation: a short identifier of its own choosing. */
const operation = text({
  min: 1,
  max: LIMITS.operationId,
  pattern: /^[A-Za-z0-9_-]+$/,
  rule: "is not an operation name (letters, digits, - and _)",
});
const selectList = list(selectName, LIMITS.properties + 3);
/** An import's dry run, by the id the host gave it. */
const planId = text({ min: 1, max: 64, pattern: /^[A-Za-z0-9-]+$/, rule: "is not a plan's id" });
/** What to do with each kind of value Azure cannot store as written: nothing beyond the declared choices. */
const importChoices = object<ImportChoices>({
  nulls: oneOf(["refuse", "omit"] as const),
  nested: oneOf(["refuse", "json"] as const),
  zoneless: oneOf(["refuse", "utc"] as const),
  duplicateKeys: oneOf(["refuse", "last"] as const),
  duplicateProperties: oneOf(["refuse", "last"] as const),
  columns: optional(dictionary(text({ min: 1, max: 255 }), oneOf(EDM_TYPES), LIMITS.properties)),
});

export const EXPLORER_SHAPES: Shapes<"explorer"> = {
  "connect.emulator": none,
  "connect.prompt": none,
  "connection.select": { id: connectionId },
  "connection.remove": { id: connectionId },
  "tables.list": none,
  "table.create": { name: tableName },
  "table.delete": { name: tableName },
  "entities.page": {
    table: tableName,
    continuationToken: optional(text({ min: 1, max: LIMITS.continuationToken })),
    filter: optional(filter),
    select: optional(selectList),
  },
  "entity.get": { table: tableName, partitionKey: key, rowKey: key },
  "entity.insert": { table: tableName, row: entityRow },
  "entity.matches": { table: tableName, filter, partitionKey: key, rowKey: key },
  "entity.update": { table: tableName, row: entityRow, etag },
  "entities.delete": { table: tableName, entities: list(entityVersion, LIMITS.entitiesPerRequest), operation: optional(operation) },
  "query.run": { table: tableName, filter, select: optional(selectList), limit: optional(integer(1, LIMITS.queryRows)) },
  "columns.sample": { table: tableName },
  "import.plan": { table: tableName, format, choices: importChoices, plan: optional(planId) },
  "import.run": { table: tableName, plan: planId, choices: importChoices, operation: optional(operation) },
  "data.export": {
    table: tableName,
    format,
    scope,
    filter: optional(filter),
    select: optional(selectList),
    operation: optional(operation),
  },
  "bulk.export": { table: tableName, operation: optional(operation) },
  "bulk.delete": { table: tableName, filter: optional(filter), operation: optional(operation) },
  "operation.cancel": { operation },
  "design.infer": { table: tableName },
};
