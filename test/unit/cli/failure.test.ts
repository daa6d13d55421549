/**
 * The CLI's one mapping of a thrown value to exit code and message: by the
 * error's kind, for every domain error the subcommands can throw, with the
 * exit codes of the contract (interfaces.md, "Command line: `tdl`").
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { InputError, RefusedError, UnavailableError, UsageError } from "@core/errors";
import { AccountError, ConnectionStringError } from "@runtime/account/errors";
import { TransferError } from "@runtime/transfer/records";
import { InferError } from "@runtime/infer/from-table";
import { StressFailure, StressInputError } from "@runtime/stress/phases";
import { StressRefused } from "@runtime/stress/engine";
import { CodegenError } from "@codegen/problems";
import type { StressReport } from "@protocol";
import { EXIT, failureResult, inContext } from "@cli/failure";

test("each domain error exits as the contract says, its message on stderr; a usage error points to the command's --help", () => {
  const cases: Array<[unknown, number]> = [
    [new UsageError("--x needs a value"), 2],
    [new StressRefused("example.com is not an emulator: confirm with --yes-real-account"), 2],
    [new InputError("a.tdl: not a regular file"), 2],
    [new StressInputError("d.tdl has no table 'T'"), 2],
    [new ConnectionStringError("AccountKey is not base64"), 2],
    [new TransferError("row 3: not an entity"), 2],
    [new CodegenError("table T has no keys"), 2],
    [new AccountError("the service answered 400 InvalidInput", "InvalidInput", 400), 2],
    [new AccountError("the table does not exist (any more)", "TableNotFound", 404), 1],
    [new AccountError("access denied", "Forbidden", 403), 1],
    [new AccountError("nothing answers at 127.0.0.1:9", "ECONNREFUSED"), 1],
    [new AccountError("the service answered 503", "ServerBusy", 503), 1],
    [new InferError("the table T holds no entities"), 1],
    [new StressFailure("the stress test failed while creating the table", {} as StressReport, "create"), 1],
    [new RefusedError("no"), 1],
    [new UnavailableError("listen EADDRINUSE: address already in use 127.0.0.1:10002"), 1],
    [new DOMException("cancelled before any entity was read", "AbortError"), 1],
  ];
  for (const [e, exitCode] of cases) {
    const r = failureResult(e, "stress");
    const message = (e as Error).message;
    const hint = e instanceof UsageError ? "Run 'tdl stress --help' for usage.\n" : "";
    assert.deepEqual(r, { stdout: "", stderr: `tdl: ${message}\n${hint}`, exitCode }, `${(e as Error).name}: ${message}`);
  }
  assert.equal(failureResult(new UsageError("unknown command 'x'")).stderr, "tdl: unknown command 'x'\nRun 'tdl --help' for usage.\n");
  assert.deepEqual([EXIT.clean, EXIT.findings, EXIT.failed, EXIT.usage, EXIT.internal], [0, 1, 1, 2, 3]);
});

test("anything else is an internal failure: exit 3, its first line, the stack only under TDL_DEBUG=1", () => {
  const bug = new TypeError("cannot read properties of undefined (reading 'x')\nsecond line");
  const saved = process.env.TDL_DEBUG;
  try {
    delete process.env.TDL_DEBUG;
    assert.deepEqual(failureResult(bug, "check"), {
      stdout: "",
      stderr: "tdl: internal failure: cannot read properties of undefined (reading 'x') (TDL_DEBUG=1 prints the stack)\n",
      exitCode: 3,
    });
    assert.equal(failureResult("a thrown string").stderr, "tdl: internal failure: a thrown string (TDL_DEBUG=1 prints the stack)\n");
    process.env.TDL_DEBUG = "1";
    const debug = failureResult(bug, "check").stderr.split("\n");
    assert.equal(debug[1], "TypeError: cannot read properties of undefined (reading 'x')");
    assert.match(debug[3], /^\s+at .*failure\.test\.ts:\d+:\d+/);
  } finally {
    if (saved === undefined) delete process.env.TDL_DEBUG;
    else process.env.TDL_DEBUG = saved;
  }
});

test("inContext says where a failure happened and keeps its kind; a bug stays a bug", () => {
  const wrapped = inContext("the connection string in TABLES", new ConnectionStringError("AccountName is missing"));
  assert.deepEqual(failureResult(wrapped), {
    stdout: "",
    stderr: "tdl: the connection string in TABLES: AccountName is missing\n",
    exitCode: 2,
  });
  const read = inContext("cannot read the table T", new AccountError("access denied", "Forbidden", 403));
  assert.equal(failureResult(read).exitCode, 1);
  const bug = new RangeError("boom");
  assert.equal(inContext("could not list the stress tables", bug), bug);
});
