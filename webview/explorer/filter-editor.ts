/**
 * The OData filter editor: Monaco with a filter language — colours,
 * completion of what fits next (the table's property names, then an
 * operator, a literal of the property's type, `and` / `or`: the vocabulary
 * of protocol/filter-words.ts, each with its documentation), error markers
 * where the filter does not parse — and a badge with the shared
 * classifier's class that follows every keystroke.
 */
import * as monaco from "monaco-editor/editor/editor.api";
import "monaco-editor/editor/contrib/suggest/browser/suggestController";
import "monaco-editor/editor/contrib/snippet/browser/snippetController2";
import "monaco-editor/editor/contrib/hover/browser/hoverContribution";
import { parseFilter, classifyFilter, badge, Classification } from "@core";
import { filterSuggestions, FilterProperty, FilterWord } from "@protocol/filter-words";
import { followTheme } from "./monaco-theme";

declare const MONACO_EDITOR_WORKER: string;

const LANGUAGE = "odata-filter";
const OPERATORS = ["eq", "ne", "gt", "ge", "lt", "le", "and", "or", "not"];

let registered = false;
let columns: FilterProperty[] = [];

/** Monaco's worker runs from a Blob made of its bundled source: the CSP allows `worker-src blob:`, no network. */
function setUpEnvironment(): void {
  (self as unknown as { MonacoEnvironment: monaco.Environment }).MonacoEnvironment = {
    getWorker: () => new Worker(URL.createObjectURL(new Blob([MONACO_EDITOR_WORKER], { type: "text/javascript" }))),
  };
}

function registerLanguage(): void {
  if (registered) return;
  registered = true;
  setUpEnvironment();
  monaco.languages.register({ id: LANGUAGE });
  monaco.languages.setMonarchTokensProvider(LANGUAGE, {
    keywords: OPERATORS,
    tokenizer: {
      root: [
        [/\b(datetime|guid|X|binary)'[^']*'/, "string.typed"],
        [/'([^']|'')*'/, "string"],
        [/\b(PartitionKey|RowKey|Timestamp)\b/, "type.key"],
        [/\b(true|false)\b/, "constant"],
        [/-?\d+(\.\d+)?([eE][+-]?\d+)?L?/, "number"],
        [/[A-Za-z_][A-Za-z0-9_]*/, { cases: { "@keywords": "keyword", "@default": "variable" } }],
        [/[()]/, "delimiter.parenthesis"],
      ],
    },
  });
  monaco.languages.setLanguageConfiguration(LANGUAGE, {
    brackets: [["(", ")"]],
    autoClosingPairs: [
      { open: "(", close: ")" },
      { open: "'", close: "'" },
    ],
  });
  monaco.languages.registerCompletionItemProvider(LANGUAGE, {
    triggerCharacters: [" ", "("],
    provideCompletionItems: (model, position) => {
      const word = model.getWordUntilPosition(position);
      const range = new monaco.Range(position.lineNumber, word.startColumn, position.lineNumber, word.endColumn);
      const before = model.getValueInRange(new monaco.Range(1, 1, position.lineNumber, position.column));
      const suggestions = filterSuggestions(before, columns).map((w, i) => suggestion(w, i, range));
      return { suggestions };
    },
  });
}

const KIND: Record<FilterWord["kind"], monaco.languages.CompletionItemKind> = {
  property: monaco.languages.CompletionItemKind.Field,
  operator: monaco.languages.CompletionItemKind.Operator,
  value: monaco.languages.CompletionItemKind.Value,
};

/** A word as Monaco offers it, in the vocabulary's order (sortText), its documentation shown beside it. */
function suggestion(w: FilterWord, index: number, range: monaco.IRange): monaco.languages.CompletionItem {
  return {
    label: w.label,
    kind: KIND[w.kind],
    insertText: w.insert,
    ...(w.snippet ? { insertTextRules: monaco.languages.CompletionItemInsertTextRule.InsertAsSnippet } : {}),
    detail: w.detail,
    documentation: { value: w.doc },
    sortText: String(index).padStart(4, "0"),
    range,
  };
}

export interface FilterState {
  classification: Classification | null;
  error: string | null;
  /** Where the filter stops parsing (1-based character), with `error`. */
  at?: number;
}

export class FilterEditor {
  readonly element: HTMLElement;
  private readonly editor: monaco.editor.IStandaloneCodeEditor;
  private current: FilterState = { classification: null, error: null };

  constructor(
    initial: string,
    private readonly onChange: (text: string, state: FilterState) => void,
    onRun: () => void,
  ) {
    registerLanguage();
    this.element = document.createElement("div");
    this.element.className = "filter-editor";
    followTheme();
    this.editor = monaco.editor.create(this.element, {
      value: initial,
      language: LANGUAGE,
      minimap: { enabled: false },
      lineNumbers: "off",
      scrollBeyondLastLine: false,
      wordWrap: "on",
      fontSize: 13,
      automaticLayout: true,
      glyphMargin: false,
      folding: false,
      renderLineHighlight: "none",
      overviewRulerLanes: 0,
      fixedOverflowWidgets: true,
      ariaLabel: "OData filter",
    });
    this.editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter, onRun);
    this.editor.onDidChangeModelContent(() => this.update());
    this.update();
  }

  get text(): string {
    return this.editor.getValue();
  }

  set text(value: string) {
    this.editor.setValue(value);
  }

  /** The state of the text now (the page checks it before running). */
  get state(): FilterState {
    return this.current;
  }

  /** The properties known of the open table (known-columns.ts: sampled, read and written; typed where they agree), offered by completion. */
  setColumns(properties: FilterProperty[]): void {
    columns = properties;
  }

  focus(): void {
    this.editor.focus();
  }

  private update(): void {
    const text = this.editor.getValue();
    const model = this.editor.getModel()!;
    let state: FilterState;
    const markers: monaco.editor.IMarkerData[] = [];
    if (text.trim()) {
      const parsed = parseFilter(text);
      if (parsed.ok) state = { classification: classifyFilter(parsed.expr), error: null };
      else {
        const start = model.getPositionAt(parsed.error.start);
        const end = model.getPositionAt(Math.max(parsed.error.end, parsed.error.start + 1));
        markers.push({
          severity: monaco.MarkerSeverity.Error,
          message: parsed.error.message,
          startLineNumber: start.lineNumber,
          startColumn: start.column,
          endLineNumber: end.lineNumber,
          endColumn: end.column,
        });
        state = { classification: null, error: parsed.error.message, at: parsed.error.start + 1 };
      }
    } else {
      state = {
        classification: {
          class: "table-scan",
          partitions: null,
          scanned: null,
          returned: null,
          selectivity: null,
          reasons: ["no filter: every entity"],
        },
        error: null,
      };
    }
    monaco.editor.setModelMarkers(model, "odata", markers);
    this.current = state;
    this.onChange(text, state);
  }
}

export { badge };
