/**
 * How a command's failure reaches the user (client/vscode/command-failure.ts),
 * the mapping every VS Code command is registered through: by the error's
 * kind, never VS Code's generic "command failed" toast. The failures of the
 * heatmap, start-emulator and connect commands — which reached that toast
 * before — are among the cases: an emulator that cannot start is
 * `unavailable`, a bug in a command `internal`, a connection the service
 * refuses `refused`.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { InputError, RefusedError, UnavailableError, UsageError } from "@core/errors";
import { AccountError } from "@runtime";
import { Notifier, runReported, SHOW_OUTPUT } from "@client/vscode/command-failure";

/** A notifier that records what VS Code would show and log; `press` is the button the user presses. */
function recorder(press?: string) {
  const shown: Array<{ level: "warning" | "error"; message: string; actions: string[] }> = [];
  const logged: string[] = [];
  let outputShown = 0;
  const show =
    (level: "warning" | "error") =>
    (message: string, ...actions: string[]) => {
      shown.push({ level, message, actions });
      return Promise.resolve(press);
    };
  const notify: Notifier = { warning: show("warning"), error: show("error"), log: (l) => logged.push(l), showLog: () => outputShown++ };
  return { notify, shown, logged, outputShown: () => outputShown };
}

const failing = (e: unknown) => () => Promise.reject(e);

test("usage, input and refused failures are warnings with their sentence, under the command's title", async () => {
  for (const e of [
    new UsageError("pick a design table first"),
    new InputError("the connection string has no AccountName"),
    new AccountError("the service answered 403 AuthorizationFailure: not allowed", "AuthorizationFailure", 403),
  ]) {
    const r = recorder();
    assert.equal(await runReported("Connect to an Account…", failing(e), r.notify), undefined);
    assert.deepEqual(r.shown.length, 1);
    assert.equal(r.shown[0].level, "warning");
    assert.equal(r.shown[0].message, `Connect to an Account: ${e.message[0].toUpperCase()}${e.message.slice(1)}.`);
    assert.deepEqual(r.shown[0].actions, []);
  }
});

test("an emulator that cannot start (the heatmap's and start-emulator's failure) is an error with its sentence; its cause is a button away", async () => {
  const r = recorder(SHOW_OUTPUT);
  const e = new UnavailableError(
    "could not start the table emulator: listen EADDRINUSE: address already in use 127.0.0.1:10002",
    "Error: listen EADDRINUSE\n    at Server.setupListenHandle",
  );
  assert.equal(await runReported("Show the Emulator's Key-space Heatmap", failing(e), r.notify), undefined);
  assert.deepEqual(r.shown, [
    {
      level: "error",
      message:
        "Show the Emulator's Key-space Heatmap: Could not start the table emulator: listen EADDRINUSE: address already in use 127.0.0.1:10002.",
      actions: [SHOW_OUTPUT],
    },
  ]);
  await Promise.resolve();
  assert.equal(r.outputShown(), 1, "the button shows the output channel");
  assert.match(
    r.logged[0],
    /^Show the Emulator's Key-space Heatmap: Could not start.*\nError: listen EADDRINUSE\n {4}at Server\.setupListenHandle$/,
  );
});

test("a bug is an error that points to the output channel, where its stack is logged (bounded)", async () => {
  const r = recorder();
  const bug = new TypeError("cannot read properties of undefined (reading 'endpoint')");
  bug.stack = `TypeError: ${bug.message}\n${"    at frame (client/extension.ts:1:1)\n".repeat(1000)}`;
  await runReported("Start the Embedded Emulator", failing(bug), r.notify);
  assert.deepEqual(r.shown, [
    {
      level: "error",
      message:
        "Start the Embedded Emulator failed: Cannot read properties of undefined (reading 'endpoint'). This is a bug: the details are in the Table Design output channel.",
      actions: [SHOW_OUTPUT],
    },
  ]);
  assert.equal(r.logged.length, 1);
  assert.match(r.logged[0], /^Start the Embedded Emulator failed: TypeError: cannot read properties/);
  assert.ok(r.logged[0].length < 8200, `the stack is bounded: ${r.logged[0].length} characters`);
  assert.match(r.logged[0], /more characters\)$/);
});

test("a cancellation says nothing; a result comes back; nothing ever rejects", async () => {
  const r = recorder();
  const aborted = Object.assign(new Error("This operation was aborted"), { name: "AbortError" });
  const canceled = Object.assign(new Error("Canceled"), { name: "Canceled" });
  for (const e of [aborted, canceled]) assert.equal(await runReported("Run a Partition Stress Test…", failing(e), r.notify), undefined);
  assert.equal(r.shown.length, 0, "nothing shown");
  assert.equal(r.logged.length, 0, "nothing logged");
  assert.equal(
    await runReported("Generate Typed Key Builders…", () => "file:///work/Orders.keys.ts", r.notify),
    "file:///work/Orders.keys.ts",
  );
  // A thrown string, a refusal: each reported, none escapes.
  await runReported("Forget a Connection…", failing("a string, not an Error"), r.notify);
  await runReported("Remove Leftover Stress Tables", failing(new RefusedError("nothing to remove")), r.notify);
  assert.deepEqual(
    r.shown.map((s) => [s.level, s.message.split(":")[0]]),
    [
      ["error", "Forget a Connection failed"],
      ["warning", "Remove Leftover Stress Tables"],
    ],
  );
});
