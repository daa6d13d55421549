/**
 * `tdl mcp` through the MCP SDK's own client over stdio (issue 36): the
 * tools are listed with schemas a JSON Schema validator compiles; each one
 * answers on the examples what `tdl check` and `tdl cost` say; hostile
 * inputs (a 10 MB design, a 5,000-deep filter, paths and links that lead
 * out of the workspace, connections that do not exist) get one sentence
 * each — never a crash, a stack, a secret or a write outside the
 * workspace; and 100 calls of each design or filter tool give the same
 * bytes. The account tools are tested against Azurite in
 * test/integration/mcp-accounts.test.ts.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv-provider.js";
import { call, startMcp, type McpSession } from "../helpers/mcp";

const CLI = path.resolve("dist/cli.js");
/** A storage key (base64 of 64 bytes) that must never appear in anything the server says. */
const KEY = Buffer.from("mcp-test-key-".repeat(5).slice(0, 64)).toString("base64");
const STACK_FRAME = /^\s+at .*(:\d+:\d+\)?|<anonymous>\)?)$/m;
const DESIGN_TOOLS = ["check_design", "check_code", "classify_query", "preview_fix", "estimate_cost", "explain_rule"];
const ACCOUNT_TOOLS = ["list_tables", "query_entities", "infer_design", "stress_test"];

let root: string;
let ws: string;
let mcp: McpSession;

before(async () => {
  root = mkdtempSync(path.join(tmpdir(), "tdl-mcp-"));
  ws = path.join(root, "ws");
  mkdirSync(ws);
  cpSync("examples", path.join(ws, "examples"), { recursive: true });
  writeFileSync(path.join(root, "outside.tdl"), "table Outside {}\n");
  symlinkSync(path.join(root, "outside.tdl"), path.join(ws, "link.tdl"));
  writeFileSync(path.join(ws, "tdl-connections.json"), JSON.stringify({ unset: { connectionStringEnv: "TDL_TEST_NOT_SET" } }));
  mcp = await startMcp(["--workspace", ws], {
    TDL_CONNECTION_SECRETLY: `DefaultEndpointsProtocol=https;AccountName=leaky;AccountKey=${KEY};EndpointSuffix=core.windows.net`,
  });
});

after(async () => {
  await mcp?.close();
  rmSync(root, { recursive: true, force: true });
});

/** `tdl …` in the workspace, as JSON. */
function tdlJson(args: string[]): { files?: Array<{ path: string; diagnostics: unknown[]; queries: unknown[] }>; tables?: unknown[] } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: ws, encoding: "utf8" });
  return JSON.parse(r.stdout) as ReturnType<typeof tdlJson>;
}

/** An error answer: one sentence, no stack, no secret. */
function assertClearError(answer: { text: string; isError: boolean }, pattern: RegExp): void {
  assert.equal(answer.isError, true, answer.text.slice(0, 300));
  assert.match(answer.text, pattern);
  assert.doesNotMatch(answer.text, STACK_FRAME);
  assert.ok(!answer.text.includes(KEY), "the key stays secret");
  assert.ok(answer.text.length < 1_000, `a sentence, not ${answer.text.length} characters`);
}

test("lists every tool with input and output schemas a JSON Schema validator compiles, and annotations saying which only read", async () => {
  const { tools } = await mcp.client.listTools();
  assert.deepEqual(
    tools.map((t) => t.name),
    [...DESIGN_TOOLS, ...ACCOUNT_TOOLS],
  );
  const ajv = new AjvJsonSchemaValidator();
  for (const t of tools) {
    assert.equal(t.inputSchema.type, "object", t.name);
    ajv.getValidator(t.inputSchema);
    assert.ok(t.outputSchema, `${t.name} has an output schema`);
    ajv.getValidator(t.outputSchema);
    assert.ok((t.description ?? "").length > 80, `${t.name} says what it does`);
    assert.equal(t.annotations?.readOnlyHint, !["preview_fix", "stress_test"].includes(t.name), t.name);
    assert.equal(t.annotations?.openWorldHint, ACCOUNT_TOOLS.includes(t.name), t.name);
  }
});

test("check_design gives each example's findings, fixes checked, and queries as tdl check --format json does", async () => {
  const designs = ["examples/ledger.tdl", "examples/telemetry.tdl", "examples/marathon.tdl", "examples/student-cards/composite-colon.tdl"];
  for (const design of designs) {
    const answer = await call(mcp.client, "check_design", { path: design });
    assert.equal(answer.isError, false, answer.text);
    const [file] = tdlJson(["check", "--format", "json", design]).files!;
    assert.deepEqual(answer.output!.findings, file.diagnostics, design);
    assert.deepEqual(answer.output!.queries, file.queries, design);
    // The text content is the structured output, as JSON.
    assert.deepEqual(JSON.parse(answer.text), answer.output);
  }
});

test("check_code gives the TypeScript example's findings and query classes as tdl check does", async () => {
  const file = "examples/typescript/registrations.ts";
  const answer = await call(mcp.client, "check_code", { paths: [file] });
  assert.equal(answer.isError, false, answer.text);
  const [expected] = tdlJson(["check", "--format", "json", file]).files!;
  const [got] = answer.output!.files as Array<{ path: string; findings: unknown[]; queries: unknown[] }>;
  assert.equal(got.path, file);
  assert.deepEqual(got.findings, expected.diagnostics);
  assert.deepEqual(got.queries, expected.queries);
});

test("estimate_cost prices each table as tdl cost --format json does; classify_query and explain_rule answer from the design and the catalog", async () => {
  const cost = await call(mcp.client, "estimate_cost", { path: "examples/ledger.tdl", region: "eastus" });
  assert.deepEqual(cost.output!.tables, tdlJson(["cost", "--format", "json", "examples/ledger.tdl"]).tables);
  assert.equal(cost.output!.errors, 1);
  const scan = await call(mcp.client, "classify_query", { filter: "RowKey eq 'b'" });
  assert.equal(scan.output!.class, "table-scan");
  const race = await call(mcp.client, "classify_query", { filter: "PartitionKey eq 'Boston__Full'", path: "examples/marathon.tdl" });
  assert.deepEqual([race.output!.class, race.output!.partitions, race.output!.scanned], ["row-range", 1, 6667]);
  const rule = await call(mcp.client, "explain_rule", { code: "key/separator-order" });
  const row = readFileSync("docs/rules.md", "utf8")
    .split("\n")
    .find((l) => l.includes('<a id="key-separator-order">'))!;
  assert.ok(row.includes(rule.output!.when as string) && row.includes(rule.output!.fix as string));
  assertClearError(
    await call(mcp.client, "explain_rule", { code: "key/nonsense" }),
    /no rule "key\/nonsense"; codes of that family: key\/unpadded-number/,
  );
});

test("preview_fix writes nothing unless asked; with apply it writes the design it read, and the finding is gone", async () => {
  const file = path.join(ws, "examples/student-cards/composite-colon.tdl");
  const before = readFileSync(file, "utf8");
  const preview = await call(mcp.client, "preview_fix", {
    path: "examples/student-cards/composite-colon.tdl",
    code: "key/separator-order",
  });
  assert.equal(preview.output!.written, false);
  assert.equal(readFileSync(file, "utf8"), before);
  const applied = await call(mcp.client, "preview_fix", {
    path: "examples/student-cards/composite-colon.tdl",
    code: "key/separator-order",
    apply: true,
  });
  assert.equal(applied.output!.written, true);
  assert.equal(readFileSync(file, "utf8"), applied.output!.text);
  const again = await call(mcp.client, "check_design", { path: "examples/student-cards/composite-colon.tdl" });
  assert.ok(!(again.output!.findings as Array<{ code: string }>).some((f) => f.code === "key/separator-order"));
  assertClearError(await call(mcp.client, "preview_fix", { design: before, apply: true }), /give it by path/);
});

test("hostile inputs get one clear sentence each: never a crash, a stack, a secret or a write outside the workspace", async () => {
  const huge = `table T {\n${"  // padding padding padding padding padding padding\n".repeat(200_000)}}\n`;
  assert.ok(huge.length > 10_000_000);
  assertClearError(
    await call(mcp.client, "check_design", { design: huge }),
    /input.design is 10,\d{3},\d{3} characters long; at most 1,000,000/,
  );
  writeFileSync(path.join(ws, "huge.tdl"), huge);
  assertClearError(
    await call(mcp.client, "check_design", { path: "huge.tdl" }),
    /'huge.tdl' is 10,\d{3},\d{3} bytes; the tools take at most 1,000,000/,
  );
  const deep = `${"(".repeat(5_000)}PartitionKey eq 'a'${")".repeat(5_000)}`;
  assertClearError(await call(mcp.client, "classify_query", { filter: deep }), /the filter does not parse at character \d+: .*nest/i);
  const outside = path.join(root, "outside.tdl");
  for (const p of ["../outside.tdl", outside, "link.tdl", "examples/../../outside.tdl"])
    assertClearError(await call(mcp.client, "check_design", { path: p }), /is outside the workspace/);
  assertClearError(
    await call(mcp.client, "check_code", { paths: ["examples/typescript/registrations.ts", "/etc/passwd"] }),
    /outside the workspace/,
  );
  for (const p of ["../new.tdl", "link.tdl", outside])
    assertClearError(await call(mcp.client, "preview_fix", { path: p, apply: true }), /outside the workspace/);
  assert.equal(existsSync(path.join(root, "new.tdl")), false);
  assert.equal(readFileSync(outside, "utf8"), "table Outside {}\n");
  const nope: Record<string, Record<string, unknown>> = {
    list_tables: { connection: "nope" },
    query_entities: { connection: "nope", table: "t" },
    infer_design: { connection: "nope", table: "t" },
    stress_test: { connection: "nope", path: "examples/marathon.tdl" },
  };
  for (const tool of ACCOUNT_TOOLS)
    assertClearError(await call(mcp.client, tool, nope[tool]), /no connection named "nope" \(connections: emulator, secretly, unset\)/);
  assertClearError(await call(mcp.client, "list_tables", { connection: "unset" }), /the environment variable TDL_TEST_NOT_SET is not set/);
  assertClearError(
    await call(mcp.client, "stress_test", { connection: "secretly", path: "examples/marathon.tdl" }),
    /secretly is not it, and the server was not started with --allow-account-stress/,
  );
  assertClearError(await call(mcp.client, "check_design", { path: 5 }), /input.path must be a string, not integer/);
  assertClearError(await call(mcp.client, "check_design", { design: "", extra: 1 }), /unknown property 'extra'/);
  assertClearError(await call(mcp.client, "classify_query", { filter: "x".repeat(300_000) }), /at most 200,000 are taken/);
  await assert.rejects(mcp.client.callTool({ name: "drop_tables", arguments: {} }), /no tool named "drop_tables"/);
  // Still serving, and it said nothing secret on stderr.
  assert.equal((await mcp.client.listTools()).tools.length, DESIGN_TOOLS.length + ACCOUNT_TOOLS.length);
  assert.ok(!mcp.stderr().includes(KEY));
  assert.doesNotMatch(mcp.stderr(), STACK_FRAME);
});

test("100 calls of each design or filter tool give byte-identical answers", async () => {
  const calls: Array<[string, Record<string, unknown>]> = [
    ["check_design", { path: "examples/telemetry.tdl" }],
    ["check_code", { paths: ["examples/typescript/registrations.ts"] }],
    ["classify_query", { filter: "PartitionKey eq 'Boston__Full' and RowKey ge 'BIB:1'", path: "examples/marathon.tdl" }],
    ["preview_fix", { path: "examples/telemetry.tdl" }],
    ["estimate_cost", { path: "examples/telemetry.tdl" }],
    ["explain_rule", { code: "partition/append-only" }],
  ];
  for (const [tool, args] of calls) {
    const first = await call(mcp.client, tool, args);
    assert.equal(first.isError, false, first.text);
    for (let i = 1; i < 100; i++) assert.equal((await call(mcp.client, tool, args)).text, first.text, `${tool}, call ${i + 1}`);
  }
});

test("the resources are the language reference and each rule's entry", async () => {
  const { resources } = await mcp.client.listResources();
  assert.equal(resources[0].uri, "tdl://docs/language");
  assert.ok(resources.some((r) => r.uri === "tdl://rules/partition/hot"));
  const language = await mcp.client.readResource({ uri: "tdl://docs/language" });
  assert.equal((language.contents[0] as { text: string }).text, readFileSync("docs/language.md", "utf8"));
  const hot = await mcp.client.readResource({ uri: "tdl://rules/partition/hot" });
  assert.match((hot.contents[0] as { text: string }).text, /^# partition\/hot\n\n- section: Partitions and load\n- severity: warning\n/);
});
