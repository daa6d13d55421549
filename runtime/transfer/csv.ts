/**
 * Entities as CSV, as Azure Storage Explorer writes them: PartitionKey and
 * RowKey columns, then each property beside a `Prop@type` column with its
 * Edm type. A property missing from an entity has an empty value and an
 * empty type; an empty String has the type `String`. A CSV without a
 * column's `@type` column is read too: its values take the column's type,
 * inferred from every row (columns.ts). A UTF-8 byte-order mark (what
 * spreadsheets write first) is skipped. docs/import-formats.md shows both.
 */
import type { EntityRow } from "@protocol/entities";
import { lineOf, Problems, RawRecord, TransferError } from "./records";

function csvField(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(rows: EntityRow[]): string {
  const names: string[] = [];
  const seen = new Set<string>();
  for (const r of rows)
    for (const k of Object.keys(r.properties))
      if (!seen.has(k)) {
        seen.add(k);
        names.push(k);
      }
  const header = ["PartitionKey", "RowKey", ...names.flatMap((n) => [n, `${n}@type`])];
  const lines = [header.map(csvField).join(",")];
  for (const r of rows) {
    const cells = [
      r.partitionKey,
      r.rowKey,
      ...names.flatMap((n) => {
        const v = r.properties[n];
        return v ? [v.value, v.type] : ["", ""];
      }),
    ];
    lines.push(cells.map(csvField).join(","));
  }
  return lines.join("\r\n") + "\r\n";
}

/** RFC 4180 records with the line each starts on: quoted fields may hold commas, quotes and line breaks. */
export function parseCsvRecords(text: string): Array<{ fields: string[]; line: number }> {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const line = lineOf(body);
  const records: Array<{ fields: string[]; line: number }> = [];
  let field = "";
  let record: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === "") quoted = true;
    else if (c === ",") {
      record.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && body[i + 1] === "\n") i++;
      record.push(field);
      records.push({ fields: record, line: line(start) });
      record = [];
      field = "";
      start = i + 1;
    } else field += c;
  }
  if (quoted) throw new TransferError(`the CSV ends inside a quoted field (opened in the record at line ${line(start)})`);
  if (field !== "" || record.length) {
    record.push(field);
    records.push({ fields: record, line: line(start) });
  }
  return records.filter((r) => !(r.fields.length === 1 && r.fields[0] === ""));
}

/** Reads the records of a CSV import file. */
export function readCsv(text: string, problems: Problems): RawRecord[] {
  const [header, ...records] = parseCsvRecords(text);
  if (!header) return [];
  const names = header.fields;
  const pkAt = names.indexOf("PartitionKey");
  const rkAt = names.indexOf("RowKey");
  if (pkAt < 0 || rkAt < 0) throw new TransferError("the CSV header needs PartitionKey and RowKey columns");
  const columns = names
    .map((name, col) => ({ name, col, typeCol: names.indexOf(`${name}@type`) }))
    .filter((c) => c.col !== pkAt && c.col !== rkAt && !c.name.endsWith("@type"));
  const seen = new Map<string, number>();
  for (const c of columns) {
    if (seen.has(c.name))
      problems.add({
        kind: "duplicateProperties",
        record: 0,
        line: header.line,
        property: c.name,
        message: `the header names the column '${c.name}' twice`,
      });
    seen.set(c.name, c.col);
  }
  return records.map(({ fields, line }, i) => {
    const record: RawRecord = {
      index: i + 1,
      line,
      partitionKey: { kind: "string", text: fields[pkAt] ?? "" },
      rowKey: { kind: "string", text: fields[rkAt] ?? "" },
      properties: [],
    };
    if (fields.length !== names.length)
      problems.add({
        kind: "invalid",
        record: i + 1,
        line,
        message: `record ${i + 1} has ${fields.length} fields where the header has ${names.length}`,
      });
    for (const c of columns) {
      if (seen.get(c.name) !== c.col && problems.choices.duplicateProperties === "refuse") continue;
      const value = fields[c.col] ?? "";
      // Without a `Name@type` column the value's type is its column's, inferred from every row (columns.ts).
      const declared = c.typeCol >= 0 ? (fields[c.typeCol] ?? "") : undefined;
      if (c.typeCol >= 0 && value === "" && declared === "") continue; // this entity does not have the property
      record.properties = record.properties.filter((p) => p.name !== c.name);
      record.properties.push({
        name: c.name,
        value: { kind: "string", text: value },
        ...(declared === undefined ? {} : { declared: declared || "String" }),
        line,
      });
    }
    return record;
  });
}
