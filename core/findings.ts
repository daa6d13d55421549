/**
 * What the analysis produces: findings with their fixes, as offsets into the
 * text (no LSP transport; the language server and the CLI convert them to
 * positions at the edge). Below the rules, which produce them.
 */

/** `hint`: shown in the editor (CodeLens, hover, a faint underline), kept out of the Problems panel. */
export type Severity = "error" | "warning" | "info" | "hint";

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
  /** A command the editor runs with the fix (after its edits, if any): e.g. generating a module the edits would use. */
  command?: { command: string; arguments?: unknown[] };
  /**
   * The fix declares a fact about the data (`increasing`, `distinct N`)
   * rather than changing the design: it reveals findings instead of causing
   * them, so checking a fix (`core/fixes/`) does not hold what it reveals against it.
   */
  fact?: boolean;
}

export interface Finding {
  code: string;
  severity: Severity;
  /** The sentence users read (the editor, `tdl check`'s text, JSON and SARIF). */
  message: string;
  /** Which of its rule's messages it is (`RuleRecord.messages`); absent on findings made outside a rule. */
  messageId?: string;
  /** The parameters the message was built from: what tests assert rather than the sentence. */
  data?: Record<string, unknown>;
  start: number;
  end: number;
  fixes?: Fix[];
}
