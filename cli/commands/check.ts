/**
 * `tdl check PATH…`, declared: its options and how they reach the analysis
 * (check.ts) and the report (report.ts).
 */
import { command } from "../command";
import { ANALYSIS, analysisOf, choice, flag, integer } from "../options";
import { runCheck } from "../check";
import { VERSION } from "../version";
import { existingPaths } from "../validate";

export const check = command({
  name: "check",
  summary: "Analyse .tdl designs and TypeScript/JavaScript files (a folder: every one below it, honouring .gitignore)",
  description:
    "Each file is analysed on its own: one that cannot be read is named on stderr, one whose analysis fails gets an 'internal' diagnostic, and every other file is still reported.",
  exits:
    "0 clean or only warnings/info; 1 any error (or more warnings than --max-warnings); 2 bad usage or an unreadable path; 3 a file could not be analysed (an internal failure, reported as an 'internal' diagnostic of that file; the other files are still reported)",
  positionals: { arg: "PATH...", count: "some" },
  options: {
    format: choice(
      ["text", "json", "sarif"],
      "text (path:line:col severity code message), json (the documented report) or sarif (SARIF 2.1.0 for code-scanning upload)",
    ).default("text"),
    "max-warnings": integer("N", "fail (exit 1) when there are more warnings than N", {
      min: 0,
      invalid: () => "--max-warnings needs a whole number",
    }),
    "test-files": flag("also apply the load rules to test files (*.test.*, *.spec.*, __tests__/, test/), which are off there by default"),
    "design-drift": flag(
      "code that builds keys or queries a table differently from the .tdl designs among the PATHs is an error (exit 1), for CI",
    ),
    ...ANALYSIS.options,
  },
  run({ positionals, options }) {
    // A PATH that is not there is a mistake on the command line: named alone, before anything is checked.
    existingPaths(positionals);
    const { output, stderr, exitCode } = runCheck(
      [...positionals],
      { format: options.format, maxWarnings: options["max-warnings"], analysis: analysisOf(options), designDrift: options["design-drift"] },
      VERSION,
    );
    return { stdout: output, stderr, exitCode };
  },
});
