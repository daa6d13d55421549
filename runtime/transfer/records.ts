/**
 * What an import file holds before any type is decided: records of raw
 * values with the line each came from, and the problems found on the way.
 * JSON and CSV are read into this shape; typing.ts decides the Edm types,
 * the same way for both, and plan.ts turns the result into a dry run.
 */
import type { EdmType } from "@protocol/entities";
import type { ImportChoices, ImportProblem } from "@protocol/transfer";
import { InputError } from "@core/errors";

/** A file that cannot be read as entities at all (not JSON, no key columns): nothing of it is written. */
export class TransferError extends InputError {}

/** A value as the file wrote it; `text` is its exact source text for numbers (no rounding), its content for strings. */
export type RawValue =
  | { kind: "string"; text: string }
  | { kind: "number"; text: string }
  | { kind: "boolean"; text: "true" | "false" }
  | { kind: "null" }
  | { kind: "nested"; text: string; what: "object" | "array" };

export interface RawProperty {
  name: string;
  value: RawValue;
  /** The type the file declares (`Edm.Int64` in JSON, `Int64` in a CSV `@type` column). */
  declared?: string;
  line: number;
}

export interface RawRecord {
  /** 1-based position of the record in the file. */
  index: number;
  line: number;
  partitionKey?: RawValue;
  rowKey?: RawValue;
  properties: RawProperty[];
}

/** Collects problems, keeping the first `MAX_KEPT` in full and counting every one by kind. */
export class Problems {
  static readonly MAX_KEPT = 1000;
  readonly kept: ImportProblem[] = [];
  readonly counts: Partial<Record<ImportProblem["kind"], number>> = {};

  constructor(readonly choices: ImportChoices) {}

  add(p: ImportProblem): void {
    this.counts[p.kind] = (this.counts[p.kind] ?? 0) + 1;
    if (this.kept.length < Problems.MAX_KEPT) this.kept.push(p);
  }

  /** Whether the user's choices convert every problem found (an `invalid` one never converts). */
  get allConverted(): boolean {
    return Object.keys(this.counts).every((k) => k !== "invalid" && this.choices[k as keyof ImportChoices] !== "refuse");
  }
}

/** The Edm types as a file may name them: `Edm.Int64` or `Int64`. */
export function edmName(declared: string): EdmType | undefined {
  const name = declared.replace(/^Edm\./, "");
  return (["String", "Int32", "Int64", "Double", "Boolean", "DateTime", "Guid", "Binary"] as const).find((t) => t === name);
}

/** 1-based line of each offset of a text, by binary search over the line starts. */
export function lineOf(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) starts.push(i + 1);
  }
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}
