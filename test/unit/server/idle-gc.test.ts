import { test } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { IdleCollector } from "@server/lsp/idle-gc";

test("a burst of analyses is followed by one collection once the editor is quiet, never one between keystrokes", async () => {
  let collections = 0;
  const idle = new IdleCollector(() => collections++, 60);
  for (let i = 0; i < 10; i++) {
    idle.analysed();
    await sleep(10);
  }
  assert.equal(collections, 0, "none while the analyses keep coming");
  await sleep(120);
  assert.equal(collections, 1, "one after the quiet moment");
  idle.analysed();
  await sleep(120);
  assert.equal(collections, 2);
  idle.dispose();
});

test("without --expose-gc there is nothing to run, and nothing is scheduled", async () => {
  const idle = new IdleCollector(undefined, 1);
  assert.equal(idle.enabled, false);
  idle.analysed();
  await sleep(10);
  assert.equal(idle.runs, 0);
});
