/**
 * Decides the Edm type of each raw value of an import file, the same way for
 * JSON and CSV: a declared type is checked strictly; an undeclared JSON value
 * takes the type its form says (a string is a String, an integer that fits
 * 32 bits an Int32, a larger one an Int64 with its digits kept, any other
 * number a Double). What Azure cannot store as written — a null, a nested
 * object, a DateTime without a zone — is a problem the user's choices
 * convert or refuse; a value that does not fit its type is always refused.
 */
import type { EdmType, EntityRow, TypedValue } from "@protocol/entities";
import { checkValue, ZONELESS_DATE_TIME } from "../account/values";
import { edmName, Problems, RawProperty, RawRecord, RawValue } from "./records";

const INT32 = 2 ** 31;
const INT64_DIGITS = /^-?\d{1,19}$/;

/** The entity a record becomes, or undefined when it cannot be one (its problems are in `problems`). */
export function typeRecord(record: RawRecord, problems: Problems): EntityRow | undefined {
  const pk = keyText(record, "PartitionKey", record.partitionKey, problems);
  const rk = keyText(record, "RowKey", record.rowKey, problems);
  const properties: Record<string, TypedValue> = {};
  for (const p of record.properties) {
    const v = typeProperty(record, p, problems);
    if (v) properties[p.name] = v;
  }
  return pk === undefined || rk === undefined ? undefined : { partitionKey: pk, rowKey: rk, properties };
}

function keyText(record: RawRecord, which: string, v: RawValue | undefined, problems: Problems): string | undefined {
  if (v?.kind === "string") return v.text;
  problems.add({
    kind: "invalid",
    record: record.index,
    line: record.line,
    message: v ? `record ${record.index}: ${which} must be a string, not ${v.kind}` : `record ${record.index} has no ${which}`,
  });
  return undefined;
}

function typeProperty(record: RawRecord, p: RawProperty, problems: Problems): TypedValue | undefined {
  const at = { record: record.index, line: p.line, property: p.name };
  const refuse = (message: string) => void problems.add({ kind: "invalid", ...at, message: `${p.name}: ${message}` });
  const v = p.value;
  if (v.kind === "null") {
    problems.add({ kind: "nulls", ...at, message: `${p.name} is null: Azure has no null (the property can be left out)` });
    return undefined;
  }
  const declared = p.declared === undefined ? undefined : edmName(p.declared);
  if (p.declared !== undefined && !declared) return refuse(`unknown type '${p.declared.slice(0, 40)}'`);
  if (v.kind === "nested") {
    if (declared && declared !== "String") return refuse(`a nested ${v.what} cannot be ${declared}`);
    problems.add({
      kind: "nested",
      ...at,
      message: `${p.name} is a nested ${v.what}: Azure stores only flat values (it can be kept as JSON text)`,
    });
    return problems.choices.nested === "json" ? { type: "String", value: v.text } : undefined;
  }
  const type = declared ?? inferred(v);
  if (type === "Boolean" && v.kind === "boolean") return { type, value: v.text };
  if (v.kind === "boolean") return refuse(`true/false cannot be ${type}`);
  if (v.kind === "number" && (type === "String" || type === "Guid" || type === "Binary" || type === "DateTime"))
    return refuse(`the number ${v.text.slice(0, 40)} cannot be ${type}`);
  let value = type === "Double" ? doubleText(v.text) : v.text;
  if (type === "DateTime" && ZONELESS_DATE_TIME.test(value)) {
    problems.add({
      kind: "zoneless",
      ...at,
      message: `${p.name} '${value}' has no time zone: it would mean a different moment on every machine (it can be read as UTC)`,
    });
    if (problems.choices.zoneless !== "utc") return undefined;
    value += "Z";
  }
  const problem = checkValue(p.name, { type, value });
  return problem ? refuse(problem.slice(p.name.length + 2)) : { type, value };
}

/** The type an undeclared JSON value's form says. */
function inferred(v: RawValue): EdmType {
  if (v.kind === "boolean") return "Boolean";
  if (v.kind !== "number") return "String";
  if (!/^-?\d+$/.test(v.text)) return "Double";
  const n = Number(v.text);
  return Math.abs(n) < INT32 || n === -INT32 ? "Int32" : INT64_DIGITS.test(v.text) ? "Int64" : "Double";
}

/** OData's spellings of the infinities (`INF`, `-INF`) as the service takes them. */
function doubleText(text: string): string {
  return text === "INF" ? "Infinity" : text === "-INF" ? "-Infinity" : text;
}
