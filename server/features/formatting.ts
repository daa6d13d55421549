/**
 * Formatting a design: one edit that replaces the whole text with the
 * formatter's. It may only move whitespace (format-check.ts): a result that
 * would change anything else is refused. A design over
 * `REQUEST_BUDGET.formatChars` is not formatted, and the user is told why.
 */
import { DocumentFormattingParams, TextEdit } from "vscode-languageserver/node";
import { formatTdl } from "@core";
import { formatCount } from "@core/text/words";
import { feature } from "../lsp/feature";
import { keepsEveryCharacter } from "../lsp/format-check";
import { REQUEST_BUDGET } from "../lsp/budget";

export const formatting = feature<DocumentFormattingParams, TextEdit[]>({
  name: "formatting",
  method: "textDocument/formatting",
  capabilities: { documentFormattingProvider: true },
  empty: [],
  answer(params, scope) {
    const design = scope.design(params);
    if (!design) return undefined;
    const { analysis, doc } = design;
    const text = analysis.text;
    if (text.length > REQUEST_BUDGET.formatChars) {
      scope.skipped(
        `the design was not formatted: it has ${formatCount(text.length)} characters, and the formatter takes designs of up to ${formatCount(REQUEST_BUDGET.formatChars)}`,
        true,
      );
      return [];
    }
    const formatted = formatTdl(text);
    if (formatted === text) return [];
    if (!keepsEveryCharacter(text, formatted)) {
      // A formatter bug must never cost the user text: refuse, and say so.
      scope.skipped("formatting refused: the result would change more than whitespace (a bug of the formatter)", true);
      return [];
    }
    // The document's own end, as the client counts lines (\r, \r\n and \n alike): the edit replaces all of it.
    return [{ range: { start: { line: 0, character: 0 }, end: doc.positionAt(text.length) }, newText: formatted }];
  },
});
