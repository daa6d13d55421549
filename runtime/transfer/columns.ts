/**
 * The type of each column of an import file, inferred from every row: the
 * values the file does not type itself (plain JSON, a CSV without `@type`
 * columns) are read for what their form says — integers that fit 32 bits,
 * larger ones, other numbers, `true`/`false`, ISO 8601 date-times with a
 * zone, GUIDs — and a column takes the one type all of them fit, widening
 * numbers (Int32 → Int64 → Double) so that 12 and 12.5 are both Doubles.
 * A value of another form is a conflict: the column takes the form most of
 * its values have, and typing.ts refuses each conflicting value with its
 * line until the user chooses a type for the column that holds it (String
 * holds every value). Values the file types itself count for their type.
 */
import type { EdmType } from "@protocol/entities";
import { edmName, RawRecord, RawValue } from "./records";

const INT32 = 2 ** 31;
const INTEGER = /^-?\d+$/;
const INT64 = /^-?\d{1,19}$/;
const NUMBER = /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
/** An ISO 8601 date-time with its zone, to seven digits of a second (what Azure keeps). */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,7})?)?(Z|[+-]\d{2}:\d{2})$/;
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The form of one value: the Edm type it reads as, `undefined` for what takes no type (a null, a nested value). */
export function formOf(v: RawValue, declared: string | undefined, csv: boolean): EdmType | undefined {
  if (declared !== undefined) return edmName(declared);
  switch (v.kind) {
    case "null":
    case "nested":
      return undefined;
    case "boolean":
      return "Boolean";
    case "number":
      return numberForm(v.text);
    case "string":
      if (csv && (v.text === "true" || v.text === "false")) return "Boolean";
      if (csv && NUMBER.test(v.text)) return numberForm(v.text);
      if (DATE_TIME.test(v.text)) return "DateTime";
      if (GUID.test(v.text)) return "Guid";
      return "String";
  }
}

function numberForm(text: string): EdmType {
  if (!INTEGER.test(text)) return "Double";
  const n = Number(text);
  return Math.abs(n) < INT32 || n === -INT32 ? "Int32" : INT64.test(text) ? "Int64" : "Double";
}

const NUMERIC: readonly EdmType[] = ["Int32", "Int64", "Double"];

/**
 * Each column's type from every row's undeclared values: numbers widen into
 * one type (a column of 12 and 12.5 is a column of Doubles, and a declared
 * Double widens the undeclared integers beside it); a JSON column's strings
 * are DateTimes or GUIDs only when every one of them is; then the form most
 * values have (a tie goes to the first seen). Values of another form are
 * the column's conflicts, which the dry run lists by line.
 */
export function inferColumns(records: readonly RawRecord[], csv: boolean): Map<string, EdmType> {
  const counts = new Map<string, { forms: Map<EdmType, number>; declaredNumbers: Set<EdmType> }>();
  for (const r of records)
    for (const p of r.properties) {
      let c = counts.get(p.name);
      if (!c) counts.set(p.name, (c = { forms: new Map(), declaredNumbers: new Set() }));
      if (p.declared !== undefined) {
        const t = edmName(p.declared);
        if (t && NUMERIC.includes(t)) c.declaredNumbers.add(t);
        continue;
      }
      const form = formOf(p.value, undefined, csv);
      if (form) c.forms.set(form, (c.forms.get(form) ?? 0) + 1);
    }
  const out = new Map<string, EdmType>();
  for (const [name, { forms, declaredNumbers }] of counts) {
    if (!forms.size) continue;
    const numbers = NUMERIC.filter((t) => forms.has(t) || (forms.size && declaredNumbers.has(t)));
    const widest = numbers[numbers.length - 1];
    const stringy = ["String", "DateTime", "Guid"].filter((t) => forms.has(t as EdmType));
    const grouped = new Map<EdmType, number>();
    for (const [t, n] of forms) {
      // JSON says which values are strings: they share one type unless all of them read as dates (or GUIDs).
      const key = NUMERIC.includes(t) ? widest : !csv && stringy.length > 1 && stringy.includes(t) ? "String" : t;
      grouped.set(key, (grouped.get(key) ?? 0) + n);
    }
    let best: [EdmType, number] | undefined;
    for (const [t, n] of grouped) if (!best || n > best[1]) best = [t, n];
    out.set(name, best![0]);
  }
  return out;
}

/** Whether a value of `form` is stored as the column's `type` (an integer fits a wider number). */
export function fitsColumn(form: EdmType, type: EdmType, csv: boolean): boolean {
  if (form === type) return true;
  if (NUMERIC.includes(form) && NUMERIC.includes(type)) return NUMERIC.indexOf(form) <= NUMERIC.indexOf(type);
  // A JSON string is a String whatever it looks like, once its column is text.
  return !csv && type === "String" && (form === "DateTime" || form === "Guid");
}
