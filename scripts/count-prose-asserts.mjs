#!/usr/bin/env node
/**
 * Counts the tests' regular-expression assertions over finding messages
 * (issue #30: fewer than 100 should remain, kept where the sentence is the
 * feature). An assertion is `assert.match(X, /…/)`, `assert.doesNotMatch(X, /…/)`,
 * `expect(X).toMatch(/…/)` or `/…/.test(X)`; it is over message prose when X
 * names a message (`f.message`, `messages`, `msg`, `.map((f) => f.message)`…).
 * Output and the messages of errors thrown by the product (`e.message` of a
 * caught error, stderr, stdout) are other contracts and are not counted.
 *
 * The texts of the TypeScript analysis's notices (`noticeText`) count too.
 *
 *   node scripts/count-prose-asserts.mjs [--list] [--max N] [--root DIR]
 *
 * Prints the count (and each place with --list); exits 1 above `--max`.
 * `--root` counts another checkout's `test/` (the figure before a change).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const args = process.argv.slice(2);
const rootAt = args.indexOf("--root");
const root = rootAt >= 0 ? args[rootAt + 1] : join(import.meta.dirname, "..");
const list = args.includes("--list");
const maxAt = args.indexOf("--max");
const max = maxAt >= 0 ? Number(args[maxAt + 1]) : Infinity;

/** Every test source below `test/`. */
function* files(dir) {
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name.startsWith(".")) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* files(p);
    else if (/\.(ts|mjs|js)$/.test(name)) yield p;
  }
}

/** The text of the balanced argument list that opens at `text[open] === "("`, up to its first top-level comma. */
function firstArgument(text, open) {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") {
      depth--;
      if (depth === 0) return text.slice(open + 1, i);
    } else if (c === "," && depth === 1) return text.slice(open + 1, i);
  }
  return "";
}

/** The subject of an assertion names a finding's message. */
const overMessage = (subject) =>
  /\bmessages?\b|\bmsgs?\b|\bnoticeText\b|\bnotAnalysed\b|\buntypedClients\b|\bsdkUnresolved\b|\.budget\b/.test(subject) &&
  !/\b(?:e|err|error|caught)\.message\b|std(?:out|err)/.test(subject);

const found = [];
for (const file of files(join(root, "test"))) {
  const text = readFileSync(file, "utf8");
  const lineOf = (at) => text.slice(0, at).split("\n").length;
  for (const m of text.matchAll(/assert\.(?:match|doesNotMatch)\(/g)) {
    const subject = firstArgument(text, m.index + m[0].length - 1);
    if (overMessage(subject)) found.push(`${relative(root, file)}:${lineOf(m.index)}`);
  }
  for (const m of text.matchAll(/\/(?:[^/\n\\]|\\.)+\/[gimsuy]*\.test\(/g)) {
    const subject = firstArgument(text, m.index + m[0].length - 1);
    if (overMessage(subject)) found.push(`${relative(root, file)}:${lineOf(m.index)}`);
  }
  for (const m of text.matchAll(/expect\(((?:[^()]|\([^()]*\))*)\)\s*\.(?:not\.)?toMatch\(/g)) {
    if (overMessage(m[1])) found.push(`${relative(root, file)}:${lineOf(m.index)}`);
  }
}
if (list) for (const f of found) console.log(f);
console.log(`${found.length} regular-expression assertions over message prose`);
if (found.length > max) process.exit(1);
