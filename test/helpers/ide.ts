/**
 * One helper per IDE feature, over one marker syntax (markers.ts: `‸` the
 * caret, `«…»` an expected range), for the pure features (server/ide, on a
 * fresh analysis) and for the real server over JSON-RPC alike: a test
 * writes the design as the user sees it and what the feature must answer,
 * never `indexOf(…) + N`. After Langium's `expectHover`,
 * `expectCompletion`, `expectGoToDefinition`.
 */
import assert from "node:assert/strict";
import { TextDocument } from "vscode-languageserver-textdocument";
import type { CompletionItem, Hover, Location, WorkspaceEdit } from "vscode-languageserver-protocol/node";
import { analyzeTdl } from "@core";
import { complete, definition, hover, references, rename } from "@server/ide";
import { applyEdits, marked } from "./markers";
import type { LspClient } from "./lsp-client";

export interface Span {
  start: number;
  end: number;
}

/** What a completion item offers: its label, its snippet when it inserts more than the label, and its documentation. */
export interface Offered {
  label: string;
  snippet?: string;
  documentation?: string;
}

/** The IDE features of one design text at one offset: the pure service, or the server over JSON-RPC. */
export interface IdeTarget {
  hover(text: string, offset: number): Promise<{ markdown: string; range?: Span } | null>;
  completion(text: string, offset: number): Promise<Offered[]>;
  definition(text: string, offset: number): Promise<Span | null>;
  references(text: string, offset: number, includeDeclaration: boolean): Promise<Span[]>;
  /** The edits of a rename; a refused name throws with the user's sentence. */
  rename(text: string, offset: number, newName: string): Promise<Array<Span & { newText: string }>>;
}

/** The pure features (server/ide) on a fresh analysis of the text. */
export const pure: IdeTarget = {
  hover: async (text, offset) => {
    const h = hover(analyzeTdl(text), offset);
    return h ? { markdown: h.markdown, range: { start: h.start, end: h.end } } : null;
  },
  completion: async (text, offset) =>
    complete(analyzeTdl(text), offset).map((c) => ({
      label: c.label,
      ...(c.snippet ? { snippet: c.snippet } : {}),
      ...(c.documentation ? { documentation: c.documentation } : {}),
    })),
  definition: async (text, offset) => definition(analyzeTdl(text), offset) ?? null,
  references: async (text, offset, includeDeclaration) => references(analyzeTdl(text), offset, includeDeclaration),
  rename: async (text, offset, newName) => rename(analyzeTdl(text), offset, newName) ?? [],
};

/** Designs opened so far: each gets a URI of its own (a second didOpen of an open URI would be ignored). */
let opened = 0;

/** The real server: each text is opened as a new design, and asked as VS Code asks. */
export function overLsp(client: LspClient, ms = 10_000): IdeTarget {
  const open = async (text: string) => {
    const uri = `file:///work/ide-${process.pid}-${++opened}.tdl`;
    await client.open(uri, text);
    const doc = TextDocument.create(uri, "tdl", 1, text);
    return { uri, doc, span: (r: Location["range"]): Span => ({ start: doc.offsetAt(r.start), end: doc.offsetAt(r.end) }) };
  };
  const at = (doc: TextDocument, offset: number) => ({ textDocument: { uri: doc.uri }, position: doc.positionAt(offset) });
  return {
    hover: async (text, offset) => {
      const { doc, span } = await open(text);
      const h = (await client.request("textDocument/hover", at(doc, offset), ms)) as Hover | null;
      return h ? { markdown: (h.contents as { value: string }).value, ...(h.range ? { range: span(h.range) } : {}) } : null;
    },
    completion: async (text, offset) => {
      const { doc } = await open(text);
      const items = (await client.request("textDocument/completion", at(doc, offset), ms)) as CompletionItem[];
      return items.map((i) => ({
        label: i.label,
        ...(i.insertText && i.insertText !== i.label ? { snippet: i.insertText } : {}),
        ...(typeof i.documentation === "object"
          ? { documentation: i.documentation.value }
          : i.documentation
            ? { documentation: i.documentation }
            : {}),
      }));
    },
    definition: async (text, offset) => {
      const { doc, span } = await open(text);
      const d = (await client.request("textDocument/definition", at(doc, offset), ms)) as Location | null;
      return d ? span(d.range) : null;
    },
    references: async (text, offset, includeDeclaration) => {
      const { doc, span } = await open(text);
      const found = (await client.request(
        "textDocument/references",
        { ...at(doc, offset), context: { includeDeclaration } },
        ms,
      )) as Location[];
      return found.map((l) => span(l.range));
    },
    rename: async (text, offset, newName) => {
      const { uri, doc, span } = await open(text);
      const edit = (await client.request("textDocument/rename", { ...at(doc, offset), newName }, ms)) as WorkspaceEdit | null;
      return (edit?.changes?.[uri] ?? []).map((e) => ({ ...span(e.range), newText: e.newText }));
    },
  };
}

/**
 * What a snippet inserts when the user accepts every default: each tab stop
 * its placeholder (`${1:Orders}`) or first choice (`${1|a,b|}`), each mirror
 * (`${1}`) what its tab stop got, escapes (`\\,` `\\|` `\\}` `\\$`) undone.
 */
export function insertSnippet(snippet: string): string {
  const values = new Map<string, string>();
  const unescape = (s: string) => s.replace(/\\([,|}$\\])/g, "$1");
  return snippet
    .replace(/\$\{(\d+):((?:\\.|[^}\\])*)\}/g, (_, n: string, d: string) => (values.set(n, unescape(d)), unescape(d)))
    .replace(/\$\{(\d+)\|((?:\\.|[^|\\])*)\|\}/g, (_, n: string, choices: string) => {
      const first = unescape(choices.split(/(?<!\\),/)[0]);
      values.set(n, first);
      return first;
    })
    .replace(/\$\{(\d+)\}|\$(\d+)/g, (_, a: string | undefined, b: string | undefined) => values.get(a ?? b!) ?? "");
}

/** The one caret of `source` (and the clean text). */
function caret(source: string): { text: string; offset: number; ranges: Span[] } {
  const m = marked(source);
  assert.equal(m.carets.length, 1, "the source has one caret ‸");
  return { text: m.text, offset: m.carets[0], ranges: m.ranges };
}

const matches = (text: string, want: string | RegExp) => (typeof want === "string" ? text.includes(want) : want.test(text));

/**
 * The hover at the caret: each of `lines` is a whole line of its markdown,
 * each of `includes` is in it, none of `excludes` is; its range is the
 * source's «range» when it marks one. `null`: no hover. Returns the markdown.
 */
export async function expectHover(
  on: IdeTarget,
  source: string,
  expected: { lines?: string[]; includes?: Array<string | RegExp>; excludes?: Array<string | RegExp> } | null,
): Promise<string> {
  const { text, offset, ranges } = caret(source);
  const h = await on.hover(text, offset);
  if (expected === null) {
    assert.equal(h, null, "no hover");
    return "";
  }
  assert.ok(h, "a hover");
  const lines = h.markdown.split("\n");
  for (const line of expected.lines ?? []) assert.ok(lines.includes(line), `the hover has the line\n  ${line}\nin\n${h.markdown}`);
  for (const want of expected.includes ?? []) assert.ok(matches(h.markdown, want), `the hover has ${want}:\n${h.markdown}`);
  for (const not of expected.excludes ?? []) assert.ok(!matches(h.markdown, not), `the hover has no ${not}:\n${h.markdown}`);
  if (ranges.length) assert.deepEqual(h.range, ranges[0], "the hover's range");
  return h.markdown;
}

/**
 * The completion at the caret: exactly `labels` in order, or starting with
 * `first`, or including each of `includes`; `snippets` gives what some
 * items insert, `documented` what their documentation says (a substring or
 * a pattern), and `everyDocumented` asks that no item goes without. Returns
 * what was offered.
 */
export async function expectCompletion(
  on: IdeTarget,
  source: string,
  expected: {
    labels?: string[];
    first?: string[];
    includes?: string[];
    snippets?: Record<string, string>;
    documented?: Record<string, string | RegExp>;
    everyDocumented?: boolean;
  },
): Promise<Offered[]> {
  const { text, offset } = caret(source);
  const offered = await on.completion(text, offset);
  const labels = offered.map((o) => o.label);
  if (expected.labels) assert.deepEqual(labels, expected.labels);
  if (expected.first) assert.deepEqual(labels.slice(0, expected.first.length), expected.first);
  for (const l of expected.includes ?? []) assert.ok(labels.includes(l), `'${l}' among ${labels.join(", ")}`);
  for (const [label, snippet] of Object.entries(expected.snippets ?? {}))
    assert.equal(offered.find((o) => o.label === label)?.snippet, snippet, `the snippet of '${label}'`);
  for (const [label, want] of Object.entries(expected.documented ?? {})) {
    const doc = offered.find((o) => o.label === label)?.documentation ?? "";
    assert.ok(matches(doc, want), `the documentation of '${label}' has ${want}: ${doc}`);
  }
  if (expected.everyDocumented)
    assert.deepEqual(
      offered.filter((o) => !o.documentation).map((o) => o.label),
      [],
      "items without documentation",
    );
  return offered;
}

/** Go to definition from the caret lands on the source's «range» (none marked: nowhere). */
export async function expectDefinition(on: IdeTarget, source: string): Promise<void> {
  const { text, offset, ranges } = caret(source);
  assert.deepEqual(await on.definition(text, offset), ranges[0] ?? null);
}

/** Find references from the caret gives exactly the source's «ranges», in order. */
export async function expectReferences(on: IdeTarget, source: string, includeDeclaration: boolean): Promise<void> {
  const { text, offset, ranges } = caret(source);
  const found = await on.references(text, offset, includeDeclaration);
  assert.deepEqual(
    [...found].sort((a, b) => a.start - b.start),
    ranges,
  );
}

/** Renaming at the caret to `newName` gives `after` (the whole text), or is refused with a sentence matching `refused`. */
export async function expectRename(
  on: IdeTarget,
  source: string,
  newName: string,
  expected: { after: string } | { refused: RegExp },
): Promise<void> {
  const { text, offset } = caret(source);
  if ("refused" in expected) {
    await assert.rejects(on.rename(text, offset, newName), expected.refused);
    return;
  }
  assert.equal(applyEdits(text, await on.rename(text, offset, newName)), expected.after);
}
