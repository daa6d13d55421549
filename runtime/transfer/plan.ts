/**
 * The dry run of an import: the file read and typed, every problem found
 * with its record and line, the types of each column, and the batches that
 * would be written — before anything is. An import writes only a plan that
 * is not refused, so a file whose record 120 repeats the keys of record 110
 * writes nothing rather than its first 100 entities.
 */
import { clip } from "@core/text/words";
import type { EdmType, EntityRow } from "@protocol/entities";
import type { TransferFormat } from "@protocol/pages";
import type { ImportChoices, ImportPlanSummary } from "@protocol/transfer";
import { batchesByPartition } from "../account/batches";
import { toCsv, readCsv } from "./csv";
import { readJson, toJson } from "./json";
import { Problems, RawRecord } from "./records";
import { typeRecord, type ColumnTypes } from "./typing";
import { inferColumns } from "./columns";

export interface ImportPlan {
  summary: ImportPlanSummary;
  /** The entities to write (after the chosen conversions), grouped into the batches that will carry them. */
  batches: EntityRow[][];
}

/** Reads `text` as `format` and says what importing it would write. Throws TransferError only when the file is not readable at all. */
export function planImport(text: string, format: TransferFormat, choices: ImportChoices): ImportPlan {
  const problems = new Problems(choices);
  const records: RawRecord[] = format === "json" ? readJson(text, problems) : readCsv(text, problems);
  const byKey = new Map<string, { row: EntityRow; record: RawRecord }>();
  const columns: ColumnTypes = { inferred: inferColumns(records, format === "csv"), csv: format === "csv", conflicts: new Map() };
  for (const record of records) {
    const row = typeRecord(record, problems, columns);
    if (!row) continue;
    const key = `${row.partitionKey}\u0000${row.rowKey}`;
    const earlier = byKey.get(key);
    if (earlier) {
      problems.add({
        kind: "duplicateKeys",
        record: record.index,
        line: record.line,
        message: `record ${record.index} has the keys of record ${earlier.record.index} (line ${earlier.record.line}): PartitionKey '${clip(row.partitionKey, 40)}', RowKey '${clip(row.rowKey, 40)}'`,
      });
      if (choices.duplicateKeys !== "last") continue;
      byKey.delete(key);
    }
    byKey.set(key, { row, record });
  }
  const rows = [...byKey.values()].map((v) => v.row);
  const batches = batchesByPartition(rows);
  return {
    batches,
    summary: {
      records: records.length,
      entities: rows.length,
      partitions: new Set(rows.map((r) => r.partitionKey)).size,
      batches: batches.length,
      columns: columnsOf(rows, columns, choices),
      problems: problems.kept,
      problemCounts: problems.counts,
      refused: !problems.allConverted,
    },
  };
}

/** Each column: the types that would be written, the type inferred from every row, the user's, and the values that do not fit. */
function columnsOf(rows: EntityRow[], typing: ColumnTypes, choices: ImportChoices): ImportPlanSummary["columns"] {
  const columns = new Map<string, Partial<Record<EdmType, number>>>();
  // Every column the file has, in its order, even one none of whose values would be written.
  for (const name of typing.inferred.keys()) columns.set(name, {});
  for (const r of rows)
    for (const [name, v] of Object.entries(r.properties)) {
      const types = columns.get(name) ?? {};
      types[v.type] = (types[v.type] ?? 0) + 1;
      columns.set(name, types);
    }
  return [...columns].map(([name, types]) => {
    const inferred = typing.inferred.get(name);
    const chosen = choices.columns?.[name];
    const conflicts = typing.conflicts.get(name);
    return {
      name,
      types,
      ...(inferred ? { inferred } : {}),
      ...(chosen ? { chosen } : {}),
      ...(conflicts ? { conflicts: conflicts.count, conflictLines: conflicts.lines } : {}),
    };
  });
}

export function serialize(rows: EntityRow[], format: TransferFormat): string {
  return format === "json" ? toJson(rows) : toCsv(rows);
}
