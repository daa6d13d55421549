/**
 * The service's own result types: offsets into the text, no LSP transport.
 * `lsp.ts` converts them to LSP shapes at the edge.
 */

export type Severity = "error" | "warning" | "info";

export interface TextEdit {
  start: number;
  end: number;
  newText: string;
}

export interface Fix {
  title: string;
  edits: TextEdit[];
  /** The main fix: marked `isPreferred` in code actions. */
  preferred?: boolean;
}

export interface Finding {
  code: string;
  severity: Severity;
  message: string;
  start: number;
  end: number;
  fixes?: Fix[];
}

export interface AnalysisOptions {
  /** Profile for files that do not declare `service`. */
  defaultService?: "azure-table" | "cosmos-table" | "tablestore";
  /** Overrides the profile's per-partition target (entities/s), from the setting. */
  partitionTargetEntitiesPerSecond?: number;
}
