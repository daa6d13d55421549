/**
 * Decides the Edm type of each raw value of an import file, the same way for
 * JSON and CSV: a declared type is checked strictly; an undeclared value
 * takes its column's type, inferred from every row (columns.ts), and one
 * whose form does not fit it is refused with its line; a type the user
 * chose for the column converts every value that can be read as it (a
 * number into the text of a String, a string's digits into an Int64). What
 * Azure cannot store as written — a null, a nested object, a DateTime
 * without a zone — is a problem the user's choices convert or refuse; a
 * value that does not fit its type is always refused.
 */
import type { EdmType, EntityRow, TypedValue } from "@protocol/entities";
import { checkValue, ZONELESS_DATE_TIME } from "../account/values";
import { edmName, Problems, RawProperty, RawRecord, RawValue } from "./records";
import { fitsColumn, formOf } from "./columns";

/** The columns' types: inferred from every row, and the values of each that do not fit (counted here, with their first lines). */
export interface ColumnTypes {
  inferred: ReadonlyMap<string, EdmType>;
  csv: boolean;
  conflicts: Map<string, { count: number; lines: number[] }>;
}

/** Lines kept per column's conflicts (the count is exact). */
const CONFLICT_LINES = 5;

const NUMERIC: readonly EdmType[] = ["Int32", "Int64", "Double"];

const INT32 = 2 ** 31;
const INT64_DIGITS = /^-?\d{1,19}$/;

/** The entity a record becomes, or undefined when it cannot be one (its problems are in `problems`). */
export function typeRecord(record: RawRecord, problems: Problems, columns?: ColumnTypes): EntityRow | undefined {
  const pk = keyText(record, "PartitionKey", record.partitionKey, problems);
  const rk = keyText(record, "RowKey", record.rowKey, problems);
  const properties: Record<string, TypedValue> = {};
  for (const p of record.properties) {
    const v = typeProperty(record, p, problems, columns);
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

function typeProperty(record: RawRecord, p: RawProperty, problems: Problems, columns: ColumnTypes | undefined): TypedValue | undefined {
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
  const chosen = problems.choices.columns?.[p.name];
  const column = columns?.inferred.get(p.name);
  if (chosen !== undefined) {
    // The user's type for the column: every value read as it, whatever its form (String holds every value).
    if (chosen === "String") return { type: "String", value: v.text };
    if (v.kind === "boolean" && chosen !== "Boolean") return refuse(`true/false cannot be ${chosen}, the type chosen for the column`);
    if (v.kind === "string" && NUMERIC.includes(chosen) && !/^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$|^-?INF$|^NaN$/.test(v.text))
      return refuse(`'${v.text.slice(0, 40)}' is not a number: it cannot be ${chosen}, the type chosen for the column`);
    if (v.kind === "string" && chosen === "Boolean" && v.text !== "true" && v.text !== "false")
      return refuse(`'${v.text.slice(0, 40)}' is not true or false: it cannot be Boolean, the type chosen for the column`);
    return finish(chosen, chosen === "Boolean" ? v.text : v.text);
  }
  if (declared === undefined && column !== undefined && columns) {
    // An empty cell of an untyped CSV is a property this entity does not have, unless the column is text.
    if (columns.csv && v.kind === "string" && v.text === "" && column !== "String") return undefined;
    const form = formOf(v, undefined, columns.csv) ?? "String";
    if (fitsColumn(form, column, columns.csv)) return finish(column, v.text);
    // Another form than the column's: written as its own, and listed by line in the dry run, where a type for the column settles it.
    const c = columns.conflicts.get(p.name) ?? { count: 0, lines: [] };
    c.count++;
    if (c.lines.length < CONFLICT_LINES) c.lines.push(p.line);
    columns.conflicts.set(p.name, c);
    return finish(form, v.text);
  }
  const type = declared ?? inferred(v);
  if (type === "Boolean" && v.kind === "boolean") return { type, value: v.text };
  if (v.kind === "boolean") return refuse(`true/false cannot be ${type}`);
  if (v.kind === "number" && (type === "String" || type === "Guid" || type === "Binary" || type === "DateTime"))
    return refuse(`the number ${v.text.slice(0, 40)} cannot be ${type}`);
  return finish(type, v.text);

  /** The value as `type`: a DateTime without a zone is the user's choice; the rest is checked as the service checks it. */
  function finish(type: EdmType, text: string): TypedValue | undefined {
    return finishValue(p, type, text, at, problems, refuse);
  }
}

function finishValue(
  p: RawProperty,
  type: EdmType,
  text: string,
  at: { record: number; line: number; property: string },
  problems: Problems,
  refuse: (message: string) => undefined,
): TypedValue | undefined {
  let value = type === "Double" ? doubleText(text) : text;
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
