/**
 * Import and export of entities as JSON and CSV with their types kept:
 * JSON carries OData `Prop@odata.type` annotations, CSV a `Prop@type`
 * column beside each property (as Azure Storage Explorer does).
 */
import { EDM_TYPES, EdmType, EntityRow, TypedValue } from "@protocol/entities";
import { InputError } from "@core/errors";

export type TransferFormat = "json" | "csv";

export class TransferError extends InputError {}

// ---- JSON ----

export function toJson(rows: EntityRow[]): string {
  const out = rows.map((r) => {
    const o: Record<string, unknown> = { PartitionKey: r.partitionKey, RowKey: r.rowKey };
    for (const [k, v] of Object.entries(r.properties)) {
      o[k] = v.type === "Int32" || v.type === "Double" ? Number(v.value) : v.type === "Boolean" ? v.value === "true" : v.value;
      if (v.type !== "String" && v.type !== "Boolean") o[`${k}@odata.type`] = `Edm.${v.type}`;
    }
    return o;
  });
  return JSON.stringify(out, null, 2) + "\n";
}

export function fromJson(text: string): EntityRow[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new TransferError(`the file is not JSON: ${(e as Error).message}`);
  }
  if (!Array.isArray(data)) throw new TransferError("the JSON must be an array of entities");
  return data.map((o, i) => {
    if (!o || typeof o !== "object") throw new TransferError(`entity ${i + 1} is not an object`);
    const rec = o as Record<string, unknown>;
    const pk = rec.PartitionKey ?? rec.partitionKey;
    const rk = rec.RowKey ?? rec.rowKey;
    if (typeof pk !== "string" || typeof rk !== "string") throw new TransferError(`entity ${i + 1} has no string PartitionKey and RowKey`);
    const properties: Record<string, TypedValue> = {};
    for (const [k, v] of Object.entries(rec)) {
      if (
        ["PartitionKey", "RowKey", "partitionKey", "rowKey", "Timestamp", "timestamp", "odata.etag", "etag"].includes(k) ||
        k.includes("@odata.")
      )
        continue;
      const annotated = rec[`${k}@odata.type`];
      const type =
        typeof annotated === "string"
          ? edm(annotated.replace(/^Edm\./, ""), i)
          : typeof v === "boolean"
            ? "Boolean"
            : typeof v === "number"
              ? Number.isInteger(v)
                ? "Int32"
                : "Double"
              : "String";
      properties[k] = { type, value: String(v) };
    }
    return { partitionKey: pk, rowKey: rk, properties };
  });
}

function edm(name: string, i: number): EdmType {
  if (!(EDM_TYPES as readonly string[]).includes(name)) throw new TransferError(`entity ${i + 1}: unknown type '${name}'`);
  return name as EdmType;
}

// ---- CSV ----

function csvField(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(rows: EntityRow[]): string {
  const names: string[] = [];
  for (const r of rows) for (const k of Object.keys(r.properties)) if (!names.includes(k)) names.push(k);
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

/** RFC 4180 records: quoted fields may hold commas, quotes and line breaks. */
export function parseCsvRecords(text: string): string[][] {
  const records: string[][] = [];
  let field = "";
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === "") quoted = true;
    else if (c === ",") {
      record.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      record.push(field);
      records.push(record);
      record = [];
      field = "";
    } else field += c;
  }
  if (quoted) throw new TransferError("the CSV ends inside a quoted field");
  if (field !== "" || record.length) {
    record.push(field);
    records.push(record);
  }
  return records.filter((r) => !(r.length === 1 && r[0] === ""));
}

export function fromCsv(text: string): EntityRow[] {
  const [header, ...records] = parseCsvRecords(text);
  if (!header) return [];
  const pkAt = header.indexOf("PartitionKey");
  const rkAt = header.indexOf("RowKey");
  if (pkAt < 0 || rkAt < 0) throw new TransferError("the CSV header needs PartitionKey and RowKey columns");
  return records.map((rec, i) => {
    const properties: Record<string, TypedValue> = {};
    header.forEach((name, col) => {
      if (col === pkAt || col === rkAt || name.endsWith("@type")) return;
      const typeCol = header.indexOf(`${name}@type`);
      const value = rec[col] ?? "";
      const typeName = typeCol >= 0 ? rec[typeCol] : "String";
      if (typeCol >= 0 && value === "" && !typeName) return; // the entity does not have this property
      properties[name] = { type: edm(typeName || "String", i), value };
    });
    return { partitionKey: rec[pkAt] ?? "", rowKey: rec[rkAt] ?? "", properties };
  });
}

export function serialize(rows: EntityRow[], format: TransferFormat): string {
  return format === "json" ? toJson(rows) : toCsv(rows);
}

export function deserialize(text: string, format: TransferFormat): EntityRow[] {
  return format === "json" ? fromJson(text) : fromCsv(text);
}
