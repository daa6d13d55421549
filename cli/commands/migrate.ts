/**
 * `tdl migrate plan|run|verify OLD.tdl NEW.tdl`: a live table moved from the
 * design it has to the design a fix gives it. `plan` says how every new key
 * is computed from an old entity, refuses a component with no source, and
 * prices the backfill; `run` backfills (migrate/run.ts); `verify` compares
 * the two tables through the key mapping and prints the cutover checklist
 * (migrate/verify.ts). The designs and names are checked before any work.
 */
import { SERVICE_NAMES } from "@core";
import { UsageError } from "@core/errors";
import { command } from "../command";
import { choice, flag, outputFolder, positive, text } from "../options";
import { EXIT } from "../failure";
import { ACCOUNT_OPTIONS } from "../account";
import { PACE_OPTIONS, paceOf } from "../jobs";
import { checkedPlan, readDesigns, refusal } from "./migrate/designs";
import { planText } from "./migrate/plan-text";
import { runMigration } from "./migrate/run";
import { verifyCommand } from "./migrate/verify";

export const ACTIONS = ["plan", "run", "verify"] as const;

/** The options only `run` and `verify` take (they talk to tables). */
const ACCOUNT_ONLY = [
  "connection-string-env",
  "account-url",
  "to-connection-string-env",
  "to-account-url",
  "from-table",
  "to-table",
] as const;

export const migrate = command({
  name: "migrate",
  summary: "Plan, run and verify the migration of a live table from one design to another (re-keyed, or into another account or profile)",
  description:
    "plan: how each new key is computed from an old entity, the write amplification, the time at --share and the cost; a new key component with no source is refused (exit 2). run: the backfill into the new tables, re-keying each entity and inserting only what is absent (resumable in --dir). verify: the tables compared entity by entity through the key mapping (--repair resolves each difference toward the newer write), then the cutover checklist.",
  exits:
    "0 done (verify: no difference); 1 the run was stopped or entities failed, verify found differences; 2 bad usage, a design with errors, or a key component with no source",
  positionals: {
    arg: "plan|run|verify OLD.tdl NEW.tdl",
    count: "some",
    missing: "migrate needs an action (plan, run or verify), OLD.tdl and NEW.tdl",
  },
  options: {
    table: text("NAME", "only this table of the old design"),
    entities: positive("N", "plan: the old table's entities, instead of the design's rows"),
    format: choice(["text", "json"], "plan: text or json").default("text"),
    ...PACE_OPTIONS,
    "to-service": choice(SERVICE_NAMES, "the target's service profile (default: the new design's): its limits are checked before writing"),
    ...ACCOUNT_OPTIONS,
    "from-table": text("NAME", "run, verify: the old table's name in the account (default: the design's)"),
    "to-table": text("TABLE=NAME", "run, verify: the name in the account of a new design's table (default: its design name)", {
      repeatable: true,
    }),
    "to-connection-string-env": text("VAR", "run, verify: the target account's connection string (default: the source's account)"),
    "to-account-url": text("URL", "run, verify: the target account's table endpoint (default: the source's account)"),
    dir: outputFolder(
      "DIR",
      "run: the job folder (the old table's export and the checkpoints); verify: the run's folder, for the checklist",
    ),
    "skip-invalid": flag("run: write the entities the target takes and list the others, instead of writing nothing"),
    repair: flag("verify: resolve each difference toward the newer write (Timestamp)"),
  },
  async run({ positionals, options, given }, io) {
    const [action, oldFile, newFile, ...rest] = positionals;
    if (!(ACTIONS as readonly string[]).includes(action))
      throw new UsageError(`migrate's first argument is plan, run or verify, not '${action.slice(0, 40)}'`);
    if (oldFile === undefined || newFile === undefined || rest.length)
      throw new UsageError(`migrate ${action} needs OLD.tdl and NEW.tdl (${positionals.length - 1} given)`);
    const misplaced = (names: readonly string[], where: string) => {
      const wrong = names.find((n) => given.has(n));
      if (wrong) throw new UsageError(`--${wrong} is for ${where}, not migrate ${action}`);
    };
    if (action === "plan") misplaced([...ACCOUNT_ONLY, "dir", "repair"], "migrate run and verify");
    else misplaced(["entities", "format"], "migrate plan");
    if (action !== "run") misplaced(["skip-invalid"], "migrate run");
    if (action !== "verify") misplaced(["repair"], "migrate verify");
    const designs = readDesigns(oldFile, newFile, options.table);
    const plan = checkedPlan(designs, {
      table: options.table,
      share: paceOf(options).share,
      entities: options.entities,
      toService: options["to-service"],
    });
    const refused = refusal(plan);
    if (refused) return { stdout: "", stderr: `tdl: ${refused.replaceAll("\n", "\ntdl: ")}\n`, exitCode: EXIT.usage };
    if (action === "plan")
      return {
        stdout: options.format === "json" ? `${JSON.stringify(plan, null, 2)}\n` : planText(plan),
        stderr: "",
        exitCode: EXIT.clean,
      };
    if (action === "run") return runMigration(designs, plan, options, io);
    return verifyCommand(designs, plan, options, io);
  },
});
