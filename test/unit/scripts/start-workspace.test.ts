/**
 * `npm start` keeps the user's work: its workspace is a copy of examples/
 * made once in the ignored workspace/ folder, found again as the user left
 * it on the next start, and replaced by a fresh copy only with --reset.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

const REPO = path.resolve(__dirname, "..", "..", "..");
// An ES module, imported as the tests import scripts/code-server.mjs.
const load = () => import("../../../scripts/workspace.mjs");
const WORKSPACE = "workspace";

function fakeRepository(): string {
  const root = mkdtempSync(path.join(tmpdir(), "tdl-start-"));
  mkdirSync(path.join(root, "examples"));
  writeFileSync(path.join(root, "examples", "shop.tdl"), "table Orders {}\n");
  return root;
}

test("the workspace is made from examples/ once, kept with the user's work on the next start, and replaced only by --reset", async () => {
  const { userWorkspace } = await load();
  const root = fakeRepository();
  try {
    const first = userWorkspace({ root });
    assert.deepEqual(first, { dir: path.join(root, (await load()).WORKSPACE), state: "created" });
    assert.equal(readFileSync(path.join(first.dir, "shop.tdl"), "utf8"), "table Orders {}\n");

    // The user's own design and an edit of an example.
    writeFileSync(path.join(first.dir, "mine.tdl"), "table Mine {}\n");
    writeFileSync(path.join(first.dir, "shop.tdl"), "table Orders { Id: int }\n");
    const again = userWorkspace({ root });
    assert.equal(again.state, "kept");
    assert.equal(readFileSync(path.join(again.dir, "mine.tdl"), "utf8"), "table Mine {}\n");
    assert.equal(readFileSync(path.join(again.dir, "shop.tdl"), "utf8"), "table Orders { Id: int }\n");

    const reset = userWorkspace({ root, reset: true });
    assert.equal(reset.state, "reset");
    assert.ok(!existsSync(path.join(reset.dir, "mine.tdl")), "--reset starts from examples/ again");
    assert.equal(readFileSync(path.join(reset.dir, "shop.tdl"), "utf8"), "table Orders {}\n");
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("the workspace folder is ignored by git, ESLint and Prettier: the user's work is never taken for the project's", () => {
  const ignored = spawnSync("git", ["check-ignore", "-q", `${WORKSPACE}/mine.ts`], { cwd: REPO });
  assert.equal(ignored.status, 0, `${WORKSPACE}/ is in .gitignore`);
  assert.match(readFileSync(path.join(REPO, ".prettierignore"), "utf8"), new RegExp(`^${WORKSPACE}/$`, "m"));
  assert.match(readFileSync(path.join(REPO, "eslint.config.mjs"), "utf8"), new RegExp(`"${WORKSPACE}/\\*\\*"`));
});

test("npm start refuses an argument it does not know, before building anything", () => {
  const r = spawnSync(process.execPath, [path.join(REPO, "scripts", "start.mjs"), "--rest"], { encoding: "utf8" });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /npm start: unknown argument --rest \(the one there is: npm start -- --reset/);
});
