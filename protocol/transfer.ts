/**
 * Importing a file of entities, as the explorer and the CLI show it: what the
 * file holds (a dry run, before anything is written), what the user chose to
 * convert, and what was and was not written.
 */
import type { EdmType } from "./entities";

/**
 * What to do with each kind of value Azure cannot store as written. Every
 * choice defaults to `refuse`: nothing is changed unless the user said so.
 */
export interface ImportChoices {
  /** A JSON `null` (Azure has no null): `omit` leaves the property out of that entity. */
  nulls: "refuse" | "omit";
  /** A nested object or array: `json` stores its JSON text as a String. */
  nested: "refuse" | "json";
  /** A DateTime without a zone (`2024-03-01T10:00:00`): `utc` reads it as UTC. */
  zoneless: "refuse" | "utc";
  /** Two records with the same PartitionKey and RowKey: `last` keeps the later one. */
  duplicateKeys: "refuse" | "last";
  /** The same property twice in one JSON object: `last` keeps the later value. */
  duplicateProperties: "refuse" | "last";
  /**
   * A type chosen per column, over the one inferred from every row: each
   * value the file does not type itself is stored as it (a number as the
   * text of a String, a string's digits as an Int64…), or refused with its
   * line when it cannot be.
   */
  columns?: Record<string, EdmType>;
}

export const REFUSE_ALL: ImportChoices = {
  nulls: "refuse",
  nested: "refuse",
  zoneless: "refuse",
  duplicateKeys: "refuse",
  duplicateProperties: "refuse",
};

/** A problem of one record: `invalid` is never converted (a value that does not fit its type, a record without keys). */
export interface ImportProblem {
  kind: Exclude<keyof ImportChoices, "columns"> | "invalid";
  /** 1-based record number and line in the file. */
  record: number;
  line: number;
  property?: string;
  message: string;
}

/** The dry run: what an import would write. */
export interface ImportPlanSummary {
  records: number;
  /** Entities that would be written after the chosen conversions. */
  entities: number;
  partitions: number;
  /** Entity group transactions (one partition, at most 100 entities each): each is written whole or not at all. */
  batches: number;
  /**
   * Types per column, as counts of what would be written (a column of Int32
   * and Double shows both); the type inferred from every row of values the
   * file does not type itself, the type the user chose, and how many values
   * are of another form than the column's (written as their own form) with
   * the lines of the first few.
   */
  columns: Array<{
    name: string;
    types: Partial<Record<EdmType, number>>;
    inferred?: EdmType;
    chosen?: EdmType;
    conflicts?: number;
    conflictLines?: number[];
  }>;
  /** The first 1,000 problems in full, and how many of each kind there were. */
  problems: ImportProblem[];
  problemCounts: Partial<Record<ImportProblem["kind"], number>>;
  /** True when some problem is neither converted by the choices nor convertible: nothing would be written. */
  refused: boolean;
}

/** What an import wrote: whole batches, and the ones the service refused (nothing of those was written). */
export interface ImportReport {
  written: number;
  batchesWritten: number;
  failed: Array<{ partitionKey: string; entities: number; reason: string }>;
  /** Entities not attempted because the user cancelled. */
  notAttempted: number;
}
