/**
 * What checking a fix finds (`vet.ts`), in a shape the CLI's JSON report
 * and the language server's code actions both carry.
 */
import { Fix, Severity } from "../findings";

/** Severities from mild to severe, for comparisons. */
export const SEVERITY_RANK: Record<Severity, number> = { hint: 0, info: 1, warning: 2, error: 3 };

/** What checking one fix found. */
export interface FixCheck {
  accepted: boolean;
  /** Why it is not offered, in words (refused fixes only). */
  refused?: string;
  /** The code of the finding it fixes. */
  removes: string;
  /** Warnings and errors the design keeps after it in the fix's table, a table it adds, and the file ("Orders/ByDay"); for a fact, those it reveals. */
  leaves: Array<{ code: string; severity: Severity; anchor: string }>;
  /** Declared queries it changes: "partition-range → partition-range · 16 requests". */
  queries: Record<string, string>;
  /**
   * Rows (and bytes, when the entity size is declared) one logical write of
   * the fixed table stores before and after the fix, when the fix writes
   * more: an index row, a mirrored table. Named in the title, weighed in
   * the order.
   */
  writes?: { before: number; after: number; bytes?: { before: number; after: number } };
  /** A fact fix: reveals what the load rules then find. */
  fact?: boolean;
  /** Ordering key, smaller first (accepted fixes only). */
  score?: number[];
}

export interface VettedFix {
  /** The fix, its title saying what it leaves (and `preferred` on the first accepted). */
  fix: Fix;
  check: FixCheck;
}
