/**
 * Service results → LSP shapes. Fixes travel in `Diagnostic.data` so code
 * actions are rebuilt from the diagnostic itself, matched on its `code`.
 */
import {
  CodeAction,
  CodeActionKind,
  CompletionItem,
  CompletionItemKind,
  Diagnostic,
  DiagnosticSeverity,
  DocumentSymbol,
  InsertTextFormat,
  SymbolKind as LspSymbolKind,
  TextEdit as LspTextEdit,
} from "vscode-languageserver/node";
import { pathToFileURL } from "node:url";
import { Finding, Fix, LineIndex, TextEdit } from "@core";
import { Completion, OutlineSymbol } from "../ide";
import { ruleHref } from "./rule-docs";

export interface FixData {
  title: string;
  edits: LspTextEdit[];
  preferred?: boolean;
  command?: { command: string; arguments?: unknown[] };
}

export interface DiagnosticData {
  fixes: FixData[];
}

const SEVERITY = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
} as const;

export function toLspEdits(lines: LineIndex, edits: TextEdit[]): LspTextEdit[] {
  return edits.map((e) => ({ range: lines.range(e.start, e.end), newText: e.newText }));
}

export function toFixData(lines: LineIndex, fix: Fix): FixData {
  return {
    title: fix.title,
    edits: toLspEdits(lines, fix.edits),
    ...(fix.preferred ? { preferred: true } : {}),
    ...(fix.command ? { command: fix.command } : {}),
  };
}

/** Another place of the same problem, as a TypeScript finding carries it (0-based line and character, absolute path). */
interface Related {
  file: string;
  line: number;
  character: number;
  message: string;
}

export function toDiagnostic(lines: LineIndex, f: Finding & { related?: Related[] }): Diagnostic {
  const d: Diagnostic = {
    range: lines.range(f.start, f.end),
    severity: SEVERITY[f.severity],
    code: f.code,
    source: "tdl",
    message: f.message,
  };
  // The code links to its row of the rules catalog (rule-docs.ts).
  const href = ruleHref(f.code);
  if (href) d.codeDescription = { href };
  if (f.fixes?.length) d.data = { fixes: f.fixes.map((fix) => toFixData(lines, fix)) } satisfies DiagnosticData;
  if (f.related?.length)
    d.relatedInformation = f.related.map((r) => ({
      location: {
        uri: pathToFileURL(r.file).href,
        range: { start: { line: r.line, character: r.character }, end: { line: r.line, character: r.character } },
      },
      message: r.message,
    }));
  return d;
}

/**
 * Quick fixes carried by the diagnostics the client sends back. The client
 * returns `data` as it received it, but nothing forces it to: entries that
 * are not a diagnostic of ours with well-formed fixes are skipped, one by one.
 */
export function codeActionsFor(uri: string, diagnostics: unknown[]): CodeAction[] {
  const actions: CodeAction[] = [];
  for (const d of diagnostics) {
    if (!isRecord(d) || (d.source !== "tdl" && d.source !== "tdl-ts")) continue;
    const fixes = isRecord(d.data) && Array.isArray(d.data.fixes) ? d.data.fixes : [];
    for (const fix of fixes) {
      if (!isFixData(fix)) continue;
      actions.push({
        title: fix.title,
        kind: CodeActionKind.QuickFix,
        diagnostics: [d as unknown as Diagnostic],
        isPreferred: !!fix.preferred,
        ...(fix.edits.length || !fix.command ? { edit: { changes: { [uri]: fix.edits } } } : {}),
        ...(fix.command ? { command: { title: fix.title, command: fix.command.command, arguments: fix.command.arguments } } : {}),
      });
    }
  }
  return actions;
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

const isPos = (p: unknown) => isRecord(p) && Number.isInteger(p.line) && Number.isInteger(p.character);

function isFixData(x: unknown): x is FixData {
  return (
    isRecord(x) &&
    typeof x.title === "string" &&
    Array.isArray(x.edits) &&
    x.edits.every((e) => isRecord(e) && typeof e.newText === "string" && isRecord(e.range) && isPos(e.range.start) && isPos(e.range.end)) &&
    (x.command === undefined ||
      (isRecord(x.command) &&
        typeof x.command.command === "string" &&
        (x.command.arguments === undefined || Array.isArray(x.command.arguments))))
  );
}

const SYMBOL_KIND = {
  table: LspSymbolKind.Struct,
  property: LspSymbolKind.Field,
  key: LspSymbolKind.Key,
  index: LspSymbolKind.Key,
  estimate: LspSymbolKind.Constant,
  query: LspSymbolKind.Method,
  write: LspSymbolKind.Event,
  transaction: LspSymbolKind.Event,
};

export function toDocumentSymbol(lines: LineIndex, s: OutlineSymbol): DocumentSymbol {
  return {
    name: s.name,
    detail: s.detail,
    kind: SYMBOL_KIND[s.kind],
    range: lines.range(s.start, s.end),
    selectionRange: lines.range(s.nameStart, s.nameEnd),
    children: s.children.map((c) => toDocumentSymbol(lines, c)),
  };
}

const COMPLETION_KIND = {
  keyword: CompletionItemKind.Keyword,
  type: CompletionItemKind.TypeParameter,
  property: CompletionItemKind.Field,
  function: CompletionItemKind.Function,
  modifier: CompletionItemKind.Keyword,
  value: CompletionItemKind.Value,
  operator: CompletionItemKind.Operator,
};

export function toCompletionItem(c: Completion): CompletionItem {
  const item: CompletionItem = { label: c.label, kind: COMPLETION_KIND[c.kind] };
  if (c.detail) item.detail = c.detail;
  if (c.documentation) item.documentation = { kind: "markdown", value: c.documentation };
  if (c.snippet) {
    item.insertText = c.snippet;
    item.insertTextFormat = InsertTextFormat.Snippet;
  }
  return item;
}
