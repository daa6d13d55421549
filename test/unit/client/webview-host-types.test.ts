/**
 * What the compiler guarantees about pages and hosts, checked by compiling
 * small probes with the project's own options: a page can make only its own
 * view's requests, with their declared params; a host's handler table and
 * shape table must cover every request. Each probe must fail with the
 * expected error on the expected line, and the control probe must compile.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import ts from "typescript";

const ROOT = path.resolve(__dirname, "..", "..", "..");
const HEADER = `import type { PageClient } from "@protocol/pages";
import type { Handlers, Shapes } from "@client/webview-host/host";
import { EXPLORER_SHAPES, entityRow, tableName } from "@client/explorer/shapes";
declare const heatmap: PageClient<"heatmap">;
declare const report: PageClient<"report">;
declare const explorer: PageClient<"explorer">;
export { EXPLORER_SHAPES, entityRow, tableName, heatmap, report, explorer };
export type { Handlers, Shapes };
`;

/** name → [the line that must not compile, the error code expected there] (an empty code: must compile). */
const PROBES: Record<string, [string, number]> = {
  control: [
    `void explorer.request("entities.delete", { table: "T", entities: [{ partitionKey: "p", rowKey: "r", etag: "e" }] }); void report.request("heatmap.open", {}); heatmap.onEvent((e) => e.second.t); const h: Handlers<"report"> = { "heatmap.open": async () => null }; void h;`,
    0,
  ],
  heatmapCannotDelete: [`void heatmap.request("entities.delete", { table: "T", entities: [] });`, 2345],
  reportCannotEdit: [
    `void report.request("entity.update", { table: "T", row: { partitionKey: "p", rowKey: "r", properties: {} }, etag: "e" });`,
    2345,
  ],
  deleteNeedsEtags: [`void explorer.request("entities.delete", { table: "T", entities: [{ partitionKey: "p", rowKey: "r" }] });`, 2741],
  updateNeedsEtag: [
    `void explorer.request("entity.update", { table: "T", row: { partitionKey: "p", rowKey: "r", properties: {} } });`,
    2345,
  ],
  missingHandler: [`const h: Handlers<"report"> = {}; void h;`, 2741],
  missingShapeField: [
    `const s: Shapes<"explorer"> = { ...EXPLORER_SHAPES, "entity.update": { table: tableName, row: entityRow } }; void s;`,
    2741,
  ],
  heatmapEventsOnly: [`heatmap.onEvent((e) => e.connections);`, 2339],
};

test("pages can make only their own requests; hosts must handle and shape every request", () => {
  const files = new Map(
    Object.entries(PROBES).map(([name, [line]]) => [path.join(ROOT, "test", "unit", `__probe_${name}.ts`), HEADER + line + "\n"]),
  );
  const config = ts.readConfigFile(path.join(ROOT, "tsconfig.json"), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, lang, ...rest) =>
    files.has(path.resolve(name)) ? ts.createSourceFile(name, files.get(path.resolve(name))!, lang) : getSourceFile(name, lang, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => files.has(path.resolve(name)) || fileExists(name);
  const program = ts.createProgram({ rootNames: [...files.keys()], options: { ...options, noEmit: true }, host });
  const probeLine = HEADER.split("\n").length - 1;
  for (const [name, [, code]] of Object.entries(PROBES)) {
    const file = program.getSourceFile(path.join(ROOT, "test", "unit", `__probe_${name}.ts`))!;
    const diagnostics = [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)].map((d) => ({
      code: d.code,
      line: file.getLineAndCharacterOfPosition(d.start ?? 0).line,
      text: ts.flattenDiagnosticMessageText(d.messageText, " "),
    }));
    if (!code) assert.deepEqual(diagnostics, [], `${name} compiles`);
    else {
      assert.equal(diagnostics.length, 1, `${name}: ${JSON.stringify(diagnostics)}`);
      assert.deepEqual(
        { code: diagnostics[0].code, line: diagnostics[0].line },
        { code, line: probeLine },
        `${name}: ${diagnostics[0].text}`,
      );
    }
  }
});
