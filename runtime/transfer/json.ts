/**
 * Entities as JSON: an array of objects whose properties carry OData's
 * `Prop@odata.type` annotations. Written so that reading it back gives the
 * same entities, types included: Int64 and Guid as strings, Double's NaN
 * and infinities as OData's strings (`"NaN"`, `"INF"`, `"-INF"`), every
 * non-String, non-Boolean value annotated. Read with jsonc-parser's tree
 * (Microsoft's parser behind VS Code's JSON support), which keeps each
 * value's source text and offset: numbers are taken as written (an Int64 past
 * 2^53 is not rounded), a property written twice is seen, and every problem
 * names its line.
 */
import { formOf } from "./columns";
import { Node, parseTree, ParseError, printParseErrorCode } from "jsonc-parser";
import type { EntityRow } from "@protocol/entities";
import type { ImportProblem } from "@protocol/transfer";
import { lineOf, Problems, RawProperty, RawRecord, RawValue, TransferError } from "./records";

const KEYS = new Set(["PartitionKey", "RowKey", "partitionKey", "rowKey"]);
/** Properties the service sets, which an import does not write. */
const SYSTEM = new Set(["Timestamp", "timestamp", "odata.etag", "etag", "odata.metadata"]);

export function toJson(rows: EntityRow[]): string {
  return JSON.stringify(rows.map(annotatedStrings), null, 2) + "\n";
}

/**
 * An entity of an export the import reads back as it was: a String that
 * reads as another type (an ISO date-time, a GUID) says it is a String, or
 * the import would infer its column as that type (columns.ts).
 */
function annotatedStrings(r: EntityRow): Record<string, unknown> {
  const o = entityObject(r);
  for (const [k, v] of Object.entries(r.properties))
    if (v.type === "String" && formOf({ kind: "string", text: v.value }, undefined, false) !== "String")
      o[`${k}@odata.type`] = "Edm.String";
  return o;
}

/** One entity as a JSON object with its annotations: an element of an export, or a line of a bulk export. */
export function entityObject(r: EntityRow): Record<string, unknown> {
  const o: Record<string, unknown> = { PartitionKey: r.partitionKey, RowKey: r.rowKey };
  for (const [k, v] of Object.entries(r.properties)) {
    o[k] = jsonValue(v.type, v.value);
    if (v.type !== "String" && v.type !== "Boolean") o[`${k}@odata.type`] = `Edm.${v.type}`;
  }
  return o;
}

/** A number where JSON holds it exactly; its text otherwise (NaN, infinities, -0, Int64, digits a double would round). */
function jsonValue(type: string, value: string): unknown {
  if (type === "Boolean") return value === "true";
  if (type === "Int32") return Number(value);
  if (type === "Double") {
    if (value === "Infinity") return "INF";
    if (value === "-Infinity") return "-INF";
    const n = Number(value);
    return Number.isFinite(n) && String(n) === value ? n : value;
  }
  return value;
}

/** Reads the records of a JSON import file; problems of its values go to `problems`, a file that is not JSON throws. */
export function readJson(text: string, problems: Problems): RawRecord[] {
  const errors: ParseError[] = [];
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const root = parseTree(body, errors, { disallowComments: true, allowTrailingComma: false });
  const line = lineOf(body);
  if (errors.length || !root) {
    const e = errors[0];
    throw new TransferError(
      e ? `the file is not JSON: ${describeParseError(e.error)} at line ${line(e.offset)}` : "the file is empty: no JSON in it",
    );
  }
  if (root.type !== "array") throw new TransferError("the JSON must be an array of entities");
  return (root.children ?? []).map((node, i) => readRecord(node, i + 1, body, line, problems));
}

/**
 * One JSON object (a line of a bulk export) as a record: `index` and `line`
 * say where it came from. A line that is not one JSON object is an `invalid`
 * problem, not a thrown error: a bulk import reports it and goes on.
 */
export function readJsonObject(text: string, index: number, line: number, problems: Problems): RawRecord {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
  if (errors.length || !root || root.type !== "object") {
    const why = errors.length ? describeParseError(errors[0].error) : "not an object";
    problems.add({ kind: "invalid", record: index, line, message: `line ${line} is not a JSON entity (${why})` });
    return { index, line, properties: [] };
  }
  return readRecord(root, index, text, () => line, problems);
}

function describeParseError(code: number): string {
  return printParseErrorCode(code)
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase();
}

function readRecord(node: Node, index: number, text: string, line: (o: number) => number, problems: Problems): RawRecord {
  const record: RawRecord = { index, line: line(node.offset), properties: [] };
  if (node.type !== "object") {
    problems.add({ kind: "invalid", record: index, line: record.line, message: `record ${index} is not an object` });
    return record;
  }
  const values = new Map<string, { value: RawValue; line: number }>();
  const annotations = new Map<string, string>();
  for (const prop of node.children ?? []) {
    const [keyNode, valueNode] = prop.children ?? [];
    if (!keyNode || !valueNode) continue;
    const name = String(keyNode.value);
    const at = line(keyNode.offset);
    if (values.has(name) || annotations.has(name)) {
      const first = values.get(name)?.line;
      problems.add(duplicateProperty(index, at, name, first));
      if (problems.choices.duplicateProperties === "refuse") continue;
    }
    const annotated = /^(.*)@odata\.type$/.exec(name);
    if (annotated) {
      if (valueNode.type === "string") annotations.set(annotated[1], valueNode.value as string);
      continue;
    }
    values.set(name, { value: rawOf(valueNode, text), line: at });
  }
  for (const [name, { value, line: at }] of values) {
    if (name === "PartitionKey" || name === "partitionKey") record.partitionKey = value;
    else if (name === "RowKey" || name === "rowKey") record.rowKey = value;
    else if (!SYSTEM.has(name) && !KEYS.has(name) && !name.includes("@odata.")) {
      const property: RawProperty = { name, value, line: at, declared: annotations.get(name) };
      record.properties.push(property);
    }
  }
  return record;
}

function duplicateProperty(record: number, line: number, name: string, first: number | undefined): ImportProblem {
  return {
    kind: "duplicateProperties",
    record,
    line,
    property: name,
    message: `'${name}' appears twice in record ${record}${first !== undefined ? ` (lines ${first} and ${line})` : ""}`,
  };
}

function rawOf(node: Node, text: string): RawValue {
  switch (node.type) {
    case "string":
      return { kind: "string", text: node.value as string };
    case "number":
      return { kind: "number", text: text.slice(node.offset, node.offset + node.length) };
    case "boolean":
      return { kind: "boolean", text: node.value ? "true" : "false" };
    case "null":
      return { kind: "null" };
    default:
      return { kind: "nested", what: node.type === "array" ? "array" : "object", text: text.slice(node.offset, node.offset + node.length) };
  }
}
