import { test } from "node:test";
import assert from "node:assert/strict";
import { getEventListeners } from "node:events";
import { linked, RequestTimeout, sleep, withDeadline } from "@runtime/net/deadline";

test("withDeadline settles at its bound even when the work ignores its signal (a stalled response body)", async () => {
  const t0 = performance.now();
  await assert.rejects(
    withDeadline(undefined, 50, () => new Promise(() => undefined)),
    (e: unknown) => e instanceof RequestTimeout && e.timeoutMs === 50,
  );
  assert.ok(performance.now() - t0 < 1000);
  const parent = new AbortController();
  setTimeout(() => parent.abort(), 20);
  await assert.rejects(
    withDeadline(parent.signal, 60_000, () => new Promise(() => undefined)),
    (e: Error) => e.name === "AbortError",
  );
});

test("withDeadline passes results and failures through, and leaves no listener behind on the parent", async () => {
  const parent = new AbortController();
  for (let i = 0; i < 1000; i++) assert.equal(await withDeadline(parent.signal, 1000, async () => i), i);
  await assert.rejects(
    withDeadline(parent.signal, 1000, async () => {
      throw Object.assign(new Error("busy"), { statusCode: 503 });
    }),
    /busy/,
  );
  await assert.rejects(
    withDeadline(parent.signal, 1000, () => {
      throw new Error("sync");
    }),
    /sync/,
  );
  assert.equal(getEventListeners(parent.signal, "abort").length, 0);
});

test("linked follows its parent, not the other way round; sleep ends early on abort", async () => {
  const parent = new AbortController();
  const child = linked(parent.signal);
  child.abort();
  assert.ok(child.signal.aborted && !parent.signal.aborted);
  const second = linked(parent.signal);
  parent.abort();
  assert.ok(second.signal.aborted);
  assert.ok(linked(parent.signal).signal.aborted, "a child of an aborted parent starts aborted");
  const t0 = performance.now();
  const c = new AbortController();
  setTimeout(() => c.abort(), 10);
  await sleep(60_000, c.signal);
  assert.ok(performance.now() - t0 < 1000);
});
