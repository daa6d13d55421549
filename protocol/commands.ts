/**
 * The extension's commands: one typed list of their ids and titles. Every
 * registration (client/vscode/commands.ts), every `executeCommand`, the
 * language server's CodeLenses, the TypeScript analysis's fixes and the
 * stress command name a command through it, never by a string of their own;
 * `package.json`'s commands, menus and `onCommand` activation events are
 * generated from it (`npm run docs:commands`), and a test fails when they
 * drift. The commands that open a page are declared with the page
 * (`PAGES` in pages.ts) and join the list here.
 */
import { type CommandSpec, PAGES, type ViewName } from "./pages";

export type { CommandSpec } from "./pages";

/** The commands that do not open a page, in the order the README lists them. */
const OWN = {
  connect: { id: "tableDesign.connect", title: "Connect to an Account…" },
  disconnect: { id: "tableDesign.disconnect", title: "Forget a Connection…" },
  startEmulator: { id: "tableDesign.startEmulator", title: "Start the Embedded Emulator" },
  /** From the CodeLens above a design's table: `(designUri, table)`. */
  checkLiveData: { id: "tableDesign.checkLiveData", title: "Check a Design Table against Live Data", palette: false },
  /** `(designUri?, table?)`: without them it asks for a design table. */
  runStressTest: { id: "tableDesign.runStressTest", title: "Run a Partition Stress Test…", activates: true },
  removeStressTables: { id: "tableDesign.removeStressTables", title: "Remove Leftover Stress Tables" },
  /** `(designUri?, table?)`: the Locust files and the Azure Load Testing definition of a design table's stress test. */
  exportStressTest: { id: "tableDesign.exportStressTest", title: "Export the Stress Test for Azure Load Testing…", activates: true },
  /** `(designUri?, table?)`: from the CodeLens, the drift fix, or the palette (it then asks). */
  generateKeyBuilders: { id: "tableDesign.generateKeyBuilders", title: "Generate Typed Key Builders…", activates: true },
  /** `(table?)`: the explorer passes the table of its active connection. */
  inferDesign: { id: "tableDesign.inferDesign", title: "Infer a Design from a Table…", activates: true },
  /** Asks for log files or folders (and a design to compare with), then opens the heatmap page with what they show. */
  openLogHeatmap: { id: "tableDesign.openLogHeatmap", title: "Open a Heatmap from Storage Logs…", activates: true },
} as const satisfies Record<string, CommandSpec>;

/** The command of view `V`, if its page has one. */
type PageCommandOf<V extends ViewName> = (typeof PAGES)[V] extends { readonly command: infer C extends CommandSpec & { name: string } }
  ? C
  : never;
/** The commands that open pages, by their name. */
type PageCommands = { [V in ViewName as PageCommandOf<V>["name"]]: PageCommandOf<V> };

const pageCommands = Object.fromEntries(
  Object.values(PAGES as Record<string, { command?: CommandSpec & { name: string } }>).flatMap((p) =>
    p.command ? [[p.command.name, p.command]] : [],
  ),
) as PageCommands;

/** Every command of the extension, by name: `COMMANDS.runStressTest.id`. */
export const COMMANDS: typeof OWN & PageCommands = { ...pageCommands, ...OWN };

export type CommandName = keyof typeof COMMANDS;
export type CommandId = (typeof COMMANDS)[CommandName]["id"];

/** The list, in order: the page commands first (the explorer's is the extension's front door), then the others. */
export function commandList(): Array<CommandSpec & { name: CommandName }> {
  return (Object.keys(COMMANDS) as CommandName[]).map((name) => ({ ...(COMMANDS[name] as CommandSpec), name }));
}
