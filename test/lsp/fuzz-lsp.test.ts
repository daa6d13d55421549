/**
 * The language server under fuzzing, over JSON-RPC with the real process:
 * hostile designs are opened, edited incrementally at random places and
 * asked every request at random positions, plus requests with params no
 * client would send. Invariants: the process stays up, every request is
 * answered within a bound, every version gets its diagnostics, and every
 * diagnostic lies inside the document as the client counts lines.
 *
 * A server that hangs or exits fails the run and is replaced, so that
 * fast-check's shrinking works on a fresh process.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { ErrorCodes, PublishDiagnosticsParams } from "vscode-languageserver-protocol/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { LspClient } from "../helpers/lsp-client";
import { fuzzAsync } from "../helpers/fuzz";
import { hostileDesign, Mutation, mutation } from "../helpers/hostile-designs";

/** Far above any normal answer (milliseconds), far below the hangs of issue 10 (seconds to forever). */
const BOUND_MS = 4000;
const METHODS = [
  "textDocument/hover",
  "textDocument/completion",
  "textDocument/definition",
  "textDocument/references",
  "textDocument/prepareRename",
  "textDocument/rename",
  "textDocument/documentSymbol",
  "textDocument/formatting",
  "textDocument/codeLens",
  "textDocument/codeAction",
] as const;

type Request = { method: (typeof METHODS)[number]; at: number; newName: string } | { junk: string; params: unknown };

const request: fc.Arbitrary<Request> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      method: fc.constantFrom(...METHODS),
      at: fc.double({ min: 0, max: 1, noNaN: true }),
      newName: fc.constantFrom("Renamed", "1bad", "", "é"),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      junk: fc.constantFrom(
        ...METHODS,
        "textDocument/semanticTokens/full",
        "workspace/executeCommand",
        "$/unknown",
        "textDocument/didOpen",
      ),
      params: fc.oneof(
        fc.jsonValue({ maxDepth: 3 }),
        fc.record({
          textDocument: fc.oneof(fc.record({ uri: fc.oneof(fc.string(), fc.integer()) }), fc.constant(null)),
          position: fc.record({
            line: fc.oneof(fc.integer({ min: -5, max: 2 ** 31 }), fc.double(), fc.string()),
            character: fc.integer({ min: -5, max: 2 ** 53 }),
          }),
          context: fc.jsonValue({ maxDepth: 2 }),
        }),
      ),
    }),
  },
);

const session = fc.record({
  design: hostileDesign,
  edits: fc.array(mutation, { maxLength: 5 }),
  requests: fc.array(request, { maxLength: 8 }),
});

let client: LspClient | undefined;
let runs = 0;
const tally = { documents: 0, versions: 0, requests: 0, restarts: 0, internal: 0 };

async function server(): Promise<LspClient> {
  if (client?.alive) return client;
  if (client) tally.restarts++;
  client = new LspClient();
  await client.within("initialize", BOUND_MS, client.initialize());
  return client;
}

after(async () => client?.close());

/** Every diagnostic inside the document, as the client counts lines (\n, \r\n and \r alike). */
function assertInside(doc: TextDocument, p: PublishDiagnosticsParams): void {
  tally.internal += p.diagnostics.filter((d) => d.code === "internal").length;
  const lines = doc.getText().split(/\r\n|\r|\n/);
  for (const d of p.diagnostics) {
    for (const pos of [d.range.start, d.range.end]) {
      assert.ok(
        pos.line < lines.length && pos.character <= lines[pos.line].length,
        `${d.code} at ${JSON.stringify(d.range)} is outside the document (${lines.length} lines)`,
      );
    }
  }
}

function edit(doc: TextDocument, m: Mutation) {
  const text = doc.getText();
  const at = Math.min(text.length, Math.floor(m.at * text.length));
  return { range: { start: doc.positionAt(at), end: doc.positionAt(Math.min(text.length, at + m.remove)) }, text: m.insert };
}

async function answer(c: LspClient, method: string, params: unknown, allowed: number[]): Promise<void> {
  tally.requests++;
  try {
    await c.request(method, params, BOUND_MS);
  } catch (e) {
    const code = (e as { code?: number }).code;
    if (code === undefined || !allowed.includes(code)) throw e;
  }
}

test("the language server survives hostile designs, edits and requests over JSON-RPC", async (t) => {
  await fuzzAsync(
    "lsp-server",
    session,
    async ({ design, edits, requests }) => {
      const c = await server();
      const uri = `file:///fuzz/run-${runs++}.tdl`;
      let doc = TextDocument.create(uri, "tdl", 1, design);
      try {
        await c.open(uri, design);
        tally.documents++;
        assertInside(doc, await c.diagnosticsOf(uri, 1, BOUND_MS));
        for (const m of edits) {
          const change = edit(doc, m);
          const v = await c.changeRange(uri, change.range, change.text);
          doc = TextDocument.update(doc, [change], v);
          tally.versions++;
          assertInside(doc, await c.diagnosticsOf(uri, v, BOUND_MS));
        }
        for (const r of requests) {
          if ("junk" in r) {
            await answer(c, r.junk, r.params, [ErrorCodes.InvalidParams, ErrorCodes.MethodNotFound]);
            continue;
          }
          const position = doc.positionAt(Math.floor(r.at * doc.getText().length));
          const diagnostics = c.latest.get(uri)?.diagnostics ?? [];
          const params = {
            textDocument: { uri },
            position,
            newName: r.newName,
            context: { includeDeclaration: true, diagnostics },
            range: { start: position, end: position },
            options: { tabSize: 2, insertSpaces: true },
          };
          // Rename refuses names that are not property names with InvalidParams, by design.
          await answer(c, r.method, params, r.method === "textDocument/rename" ? [ErrorCodes.InvalidParams] : []);
        }
        assert.ok(c.alive, "the server is running");
      } catch (e) {
        // A hung or dead server is replaced before the next run (and before fast-check's shrinking).
        if (!c.alive || /no answer within/.test(String(e))) await c.kill();
        throw e;
      } finally {
        if (c.alive) await c.connection.sendNotification("textDocument/didClose", { textDocument: { uri } });
      }
    },
    200,
  );
  t.diagnostic(
    `fuzz-lsp: ${tally.documents} documents, ${tally.versions} edits, ${tally.requests} requests; ${tally.restarts} server restarts; ${tally.internal} internal diagnostics (failures the guards caught)`,
  );
});
