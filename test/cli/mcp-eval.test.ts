/**
 * The evaluation kept in the repository (test/fixtures/agent-eval.json):
 * design-review, classification, cost and fix tasks with the answers a
 * reviewer expects, each asked of `tdl mcp` through the MCP SDK's client over
 * stdio, in the repository as the workspace. A task that changes its answer
 * fails here with its name and the part that changed.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { call, startMcp, type McpSession } from "../helpers/mcp";

interface Expectation {
  path: string;
  equals?: unknown;
  includes?: unknown;
  excludes?: unknown;
  matches?: string;
}

interface Task {
  name: string;
  kind: "design-review" | "classification" | "cost" | "fix" | "rule";
  tool: string;
  arguments: Record<string, unknown>;
  expect?: Expectation[];
  error?: string;
}

const EVAL = JSON.parse(readFileSync("test/fixtures/agent-eval.json", "utf8")) as { tasks: Task[] };

/** The value at `path` (dots; `*` maps over an array). */
function select(value: unknown, path: string): unknown {
  const [head, ...rest] = path.split(".");
  if (head === undefined || head === "") return value;
  if (head === "*") return Array.isArray(value) ? value.map((v) => select(v, rest.join("."))) : undefined;
  const next = value !== null && typeof value === "object" ? (value as Record<string, unknown>)[head] : undefined;
  return rest.length ? select(next, rest.join(".")) : next;
}

let mcp: McpSession;
before(async () => {
  mcp = await startMcp(["--workspace", "."]);
});
after(() => mcp?.close());

test("the evaluation covers each kind of task an agent asks", () => {
  const kinds = new Set(EVAL.tasks.map((t) => t.kind));
  for (const kind of ["design-review", "classification", "cost", "fix"]) assert.ok(kinds.has(kind as Task["kind"]), kind);
  assert.equal(new Set(EVAL.tasks.map((t) => t.name)).size, EVAL.tasks.length, "task names are unique");
});

test("the path selection reads fields, indexes and every element", () => {
  const v = { a: [{ b: 1 }, { b: 2 }], c: { d: "x" } };
  assert.deepEqual(select(v, "a.*.b"), [1, 2]);
  assert.equal(select(v, "a.1.b"), 2);
  assert.equal(select(v, "c.d"), "x");
  assert.equal(select(v, "c.e.f"), undefined);
});

for (const task of EVAL.tasks)
  test(`${task.kind}: ${task.name}`, async () => {
    const answer = await call(mcp.client, task.tool, task.arguments);
    if (task.error !== undefined) {
      assert.equal(answer.isError, true, answer.text.slice(0, 300));
      assert.match(answer.text, new RegExp(task.error));
      return;
    }
    assert.equal(answer.isError, false, answer.text.slice(0, 300));
    for (const e of task.expect ?? []) {
      const got = select(answer.output, e.path);
      if ("equals" in e) assert.deepEqual(got, e.equals, e.path);
      if ("includes" in e)
        assert.ok(
          Array.isArray(got) && got.some((g) => JSON.stringify(g) === JSON.stringify(e.includes)),
          `${e.path} includes ${JSON.stringify(e.includes)}: ${JSON.stringify(got)}`,
        );
      if ("excludes" in e)
        assert.ok(
          Array.isArray(got) && !got.some((g) => JSON.stringify(g) === JSON.stringify(e.excludes)),
          `${e.path} excludes ${JSON.stringify(e.excludes)}`,
        );
      if (e.matches !== undefined) assert.match(String(got), new RegExp(e.matches), e.path);
    }
  });
