// A command run on a real pseudo-terminal (util-linux `script`), as a user at
// a terminal runs it: what it prints is watched, and a line is typed back
// when the caller recognises its question. Used by the bulk CLI tests and
// `npm run bench` (the delete's confirmation).
import { spawn } from "node:child_process";

/** A word quoted for the POSIX shell `script -c` runs. */
const quote = (word) => `'${word.replace(/'/g, `'\\''`)}'`;

/**
 * Runs `argv` at a terminal. `answer` is called with everything printed so
 * far whenever more is printed, one call at a time, until it returns the line
 * to type (once). Resolves with the exit code and what was printed
 * (the terminal's line endings are \r\n).
 */
export function atTerminal(argv, { env = process.env, answer = async () => undefined } = {}) {
  const child = spawn("script", ["-qefc", argv.map(quote).join(" "), "/dev/null"], { env });
  let printed = "";
  let typed = false;
  let asking = false;
  const consider = async () => {
    if (typed || asking) return;
    asking = true;
    try {
      for (let seen = -1; !typed && seen !== printed.length;) {
        seen = printed.length;
        const line = await answer(printed);
        if (line !== undefined) {
          typed = true;
          child.stdin.write(`${line}\n`);
        }
      }
    } catch (e) {
      printed += `\n(the answer failed: ${e instanceof Error ? e.message : e})\n`;
      child.kill();
    } finally {
      asking = false;
    }
  };
  const onData = (d) => {
    printed += d;
    void consider();
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => resolve({ code, printed }));
  });
}
