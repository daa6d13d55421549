/**
 * Tidy: every repository path that a comment or the documentation names
 * exists, so that a rename cannot leave a reader looking for a file that
 * is gone (as rust-analyzer's `tidy` tests do for its docs).
 *
 * Where: the comments of the repository's source files (.ts .tsx .mts .cts
 * .js .mjs .cjs, comments found by the TypeScript parser, so strings and
 * regular expressions are not read as comments) and its Markdown files,
 * leaving out what .gitignore does, CHANGELOG.md (history), and test/corpus/
 * and test/fixtures/ (sample projects with a layout of their own).
 *
 * What counts as a path (the convention):
 * - `ROOT/…`: names joined by `/` (letters, digits, `_`, `.`, `-`), the
 *   first of which is a folder at the repository's root — `core/model/keys.ts`,
 *   `server/lsp/`, `docs/rules.md`, or the folder form `docs/`. It names that
 *   file or folder from the root, wherever it is written.
 * - `DIR/`: one folder name with its slash — `explorer/`. Some tracked
 *   folder has that name.
 * - `DIR/…/name.ext`: a relative path that does not start at the root and
 *   ends in a source or document file (.ts .tsx .mjs .cjs .js .json .md .tdl
 *   .css .html) — `model/where.ts` in a comment of core/. It is the end of
 *   a tracked file's path.
 * Not paths: a name without `/` (`keys.ts`, a generated `Orders.keys.ts`);
 * anything right after a letter, a digit, `/`, `.`, `:`, `@` or `-` (URLs,
 * `@scope/package`, `./x`, `../x`); a slash before `"`, `'` or `>` (`W/"…"`,
 * `<Code/>`); anything holding `*` (globs); what git ignores (`dist/`,
 * `node_modules/`); placeholders (`path/to/…`, a name in capitals such as
 * `DIR/`); files joined by `/` (`tsconfig.json/jsconfig.json`, a choice);
 * words joined by `/` in prose (`entities/s`, `I/O`, rule codes like
 * `key/too-long`), which start at no root folder and end in no file. A
 * folder of something else (a user's project) is named in words, not as
 * `DIR/`.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import ignore from "ignore";

const ROOT = path.resolve(__dirname, "..", "..");
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const FILE_NAME = /\.(ts|tsx|mjs|cjs|js|json|md|tdl|css|html)$/;
const EXEMPT = /^(CHANGELOG\.md$|test\/corpus\/|test\/fixtures\/)/;
const ignored = ignore().add(readFileSync(path.join(ROOT, ".gitignore"), "utf8"));

/** The repository's files, as git sees them: what .gitignore leaves out is not walked (nor .git, nor links). */
function repositoryFiles(dir = ""): string[] {
  const out: string[] = [];
  for (const e of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = dir ? `${dir}/${e.name}` : e.name;
    if (e.name === ".git" || e.isSymbolicLink()) continue;
    if (e.isDirectory() && !ignored.ignores(`${rel}/`)) out.push(...repositoryFiles(rel));
    else if (e.isFile() && !ignored.ignores(rel)) out.push(rel);
  }
  return out;
}

const tracked = repositoryFiles();
const files = new Set(tracked);
const folders = new Set(
  tracked.flatMap((f) =>
    f
      .split("/")
      .slice(0, -1)
      .map((_, i, parts) => parts.slice(0, i + 1).join("/")),
  ),
);
const rootFolders = new Set(tracked.filter((f) => f.includes("/")).map((f) => f.split("/")[0]));
const folderNames = new Set([...folders].map((d) => path.posix.basename(d)));

/** The comments of a source file, each with its offset. */
function comments(file: string, text: string): Array<{ at: number; text: string }> {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith("x") ? ts.ScriptKind.TSX : undefined);
  const out = new Map<number, string>();
  const take = (ranges: ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) out.set(r.pos, text.slice(r.pos, r.end));
  };
  const visit = (node: ts.Node) => {
    take(ts.getLeadingCommentRanges(text, node.getFullStart()));
    take(ts.getTrailingCommentRanges(text, node.getEnd()));
    node.forEachChild(visit);
  };
  visit(sf);
  take(ts.getLeadingCommentRanges(text, sf.endOfFileToken.getFullStart()));
  return [...out].map(([at, t]) => ({ at, text: t }));
}

/** Whether a path by the convention names something git tracks (true for what the convention does not call a path). */
function exists(token: string): boolean {
  const p = token.replace(/\/$/, "");
  const segments = p.split("/");
  if (!p.includes("/") && !token.endsWith("/")) return true;
  // Placeholders, what git ignores, and `tsconfig.json/jsconfig.json`: a choice of files, not a folder holding one.
  if (p.startsWith("path/to/") || segments.some((s) => /^[A-Z][A-Z0-9_]*$/.test(s)) || ignored.ignores(token)) return true;
  if (segments.slice(0, -1).some((s) => FILE_NAME.test(s))) return true;
  if (segments.length === 1) return folderNames.has(p);
  if (rootFolders.has(segments[0])) return files.has(p) || folders.has(p);
  if (FILE_NAME.test(p)) return tracked.some((f) => f.endsWith(`/${p}`));
  return true;
}

/** The paths named in a piece of text that do not exist, with their offsets. */
function missing(text: string): Array<{ at: number; path: string }> {
  const out: Array<{ at: number; path: string }> = [];
  // A whole run of name characters and slashes, not inside a URL, a scoped package, a relative or a glob.
  for (const m of text.matchAll(/(?<![\w./:@*-])\w[\w.-]*(?:\/[\w.-]+)*\/?(?![\w.*{<>"'/-])/g)) {
    // A sentence may end right after a path.
    const token = m[0].replace(/\.$/, "");
    if (!exists(token)) out.push({ at: m.index, path: token });
  }
  return out;
}

const lineOf = (text: string, at: number) => text.slice(0, at).split("\n").length;

test("every repository path named in a comment or in the documentation exists", () => {
  const problems: string[] = [];
  for (const file of tracked) {
    if (EXEMPT.test(file)) continue;
    if (SOURCE.test(file)) {
      const text = readFileSync(path.join(ROOT, file), "utf8");
      for (const c of comments(file, text))
        for (const p of missing(c.text)) problems.push(`${file}:${lineOf(text, c.at + p.at)}: ${p.path}`);
    } else if (file.endsWith(".md")) {
      const text = readFileSync(path.join(ROOT, file), "utf8");
      text.split("\n").forEach((line, i) => {
        for (const p of missing(line)) problems.push(`${file}:${i + 1}: ${p.path}`);
      });
    }
  }
  assert.deepEqual(problems, [], "paths that do not exist (test/unit/tidy.test.ts says what counts as a path)");
});

test("the convention tells paths from prose, URLs and packages", () => {
  const paths = (text: string) => missing(text).map((p) => p.path);
  assert.deepEqual(paths('an ETag `W/"1"`, Azurite\'s `<Code/>`'), []);
  assert.deepEqual(paths("see core/model/keys.ts, `client/panels/`, explorer/ and model/where.ts in docs/rules.md or docs/."), []);
  assert.deepEqual(paths("moved: core/model/gone.ts, server/src, `client/panel/`, model/gone.ts, panel/."), [
    "core/model/gone.ts",
    "server/src",
    "client/panel/",
    "model/gone.ts",
    "panel/",
  ]);
  assert.deepEqual(
    paths(
      "2,000 entities/s, Orders.keys.ts, tsconfig.json/jsconfig.json, I/O, key/too-long, https://example.com/a/b.ts, @azure/data-tables, ../x/y.ts, dist/cli.js, test/*.ts, path/to/a.ts, DIR/&lt;table>.keys.ts, OUT/x.ts",
    ),
    [],
  );
});
