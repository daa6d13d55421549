/**
 * The explorer's "Infer a design…" request as the host checks it: the page
 * names a table and nothing else; the host refuses anything that is not a
 * table name before the handler runs, answers "no connection" rather than
 * letting VS Code's command fall back to the emulator, and says so when
 * the host has no way to infer (no VS Code behind it). The browser test
 * (test/browser/explorer-infer.test.ts) drives the request from the page
 * against a real emulator.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ExplorerController } from "@client/explorer/controller";
import { MemoryStore, ScriptedUi } from "../../helpers/memory-store";
import { hostOn, spied } from "../../helpers/page-channel";

/** A scripted UI that records what it was asked to infer. */
class InferringUi extends ScriptedUi {
  inferred: string[] = [];
  async inferDesign(table: string): Promise<void> {
    this.inferred.push(table);
  }
}

function explorer(ui: ScriptedUi) {
  const { spec, calls } = spied(new ExplorerController(new MemoryStore(), ui, () => undefined).view());
  const h = hostOn(spec);
  h.channel.send({ type: "ready" });
  let id = 0;
  const ask = async (params: unknown, extra: Record<string, unknown> = {}) => {
    const n = ++id;
    h.channel.send({ type: "request", id: n, method: "design.infer", params, ...extra });
    await h.host.settled();
    return h.channel.answers(n);
  };
  return { ...h, calls, ask };
}

test("params that are not one table name are refused before the handler runs, and not echoed", async () => {
  const ui = new InferringUi(undefined as never);
  const e = explorer(ui);
  const cases: Array<[unknown, RegExp]> = [
    [undefined, /^refused: params/],
    [null, /^refused: params/],
    ["Orders", /^refused: params/],
    [{}, /^refused: params\.table/],
    [{ table: "" }, /^refused: params\.table/],
    [{ table: 42 }, /^refused: params\.table/],
    [{ table: ["Orders"] }, /^refused: params\.table/],
    [{ table: "../../x" }, /^refused: params\.table: is not a table name/],
    [{ table: "Orders?comp=acl" }, /^refused: params\.table: is not a table name/],
    [{ table: "1Orders" }, /^refused: params\.table: is not a table name/],
    [{ table: "Orders\u0000" }, /^refused: params\.table: is not a table name/],
    [{ table: "A".repeat(256) }, /^refused: params\.table/],
    [{ table: "A".repeat(1_000_000) }, /^refused: params\.table/],
    [{ table: "Orders", sample: 10 }, /^refused: params: has no field 'sample'/],
    [{ table: "Orders", __proto__: { sample: 1 } }, /^refused: /],
  ];
  for (const [params, why] of cases) {
    const answers = await e.ask(params);
    assert.equal(answers.length, 1, JSON.stringify(params)?.slice(0, 80));
    const a = answers[0] as { ok: boolean; error?: string };
    assert.equal(a.ok, false);
    assert.match(a.error ?? "", why, `${JSON.stringify(params)?.slice(0, 80)} → ${a.error}`);
    assert.ok(!(a.error ?? "").includes("../../x") && !(a.error ?? "").includes("comp=acl"), "the page's value is not echoed");
  }
  assert.deepEqual(e.calls, [], "no bad request reached the handler");
  assert.deepEqual(ui.inferred, []);
  assert.ok(
    e.logs.every((l) => !l.includes("AAAAAAAAAA")),
    "the log names the rule, not the payload",
  );
});

test("a well-formed request without a connection is answered 'no connection' and infers nothing", async () => {
  const ui = new InferringUi(undefined as never);
  const e = explorer(ui);
  const [answer] = await e.ask({ table: "Orders" });
  assert.deepEqual(answer, {
    type: "response",
    id: 1,
    ok: false,
    kind: "usage",
    error: "no connection: connect to an account or start the emulator first",
  });
  assert.deepEqual(e.calls, [{ method: "design.infer", params: { table: "Orders" } }]);
  assert.deepEqual(ui.inferred, [], "VS Code's command would have used the emulator instead of the explorer's connection");
});

test("a host that cannot infer says so", async () => {
  const e = explorer(new ScriptedUi(undefined as never));
  const [answer] = await e.ask({ table: "Orders" });
  assert.deepEqual(answer, {
    type: "response",
    id: 1,
    ok: false,
    kind: "unavailable",
    error: "inferring a design is not available here: run it from VS Code",
  });
});
