/**
 * What the explorer's host asks the user, and where files come from and go
 * to: VS Code's dialogs in the extension (client/panels/explorer-ui.ts),
 * scripted answers in the browser tests.
 */
import type { ConnectionInfo } from "@protocol";
import type { TransferFormat } from "@protocol/pages";
import type { Secret } from "@runtime";

/** What the host asks the user, and where files come from and go to. */
export interface ExplorerUi {
  confirm(message: string): Promise<boolean>;
  /** Asks for a new connection in the host's own inputs; undefined when cancelled. */
  promptConnection(): Promise<{ info: ConnectionInfo; secret: Secret } | undefined>;
  /** Starts (or returns) the embedded emulator. */
  emulator(): Promise<{ info: ConnectionInfo; secret: Secret }>;
  /** The embedded emulator when it is already running (never starts it). */
  runningEmulator(): Promise<{ info: ConnectionInfo; secret: Secret } | undefined>;
  openFile(format: TransferFormat): Promise<{ path: string; text: string } | undefined>;
  /** Asks where to save; undefined when the user dismisses the dialog. */
  saveTarget(format: TransferFormat, suggestedName: string): Promise<string | undefined>;
  writeFile(target: string, text: string): Promise<void>;
  /** Asks for a folder (an export of a whole table); undefined when dismissed. */
  chooseFolder(title: string, suggestedName: string): Promise<string | undefined>;
  /** Where a job's record goes (the keys a delete removed): a path in the host's own storage, its folder made. */
  jobLog(name: string): Promise<string>;
  /** Runs work under a cancellable progress indicator. */
  withProgress<T>(title: string, work: (report: (done: number, total?: number) => void, signal: AbortSignal) => Promise<T>): Promise<T>;
  /**
   * Infers a design from `table` of the active connection (in VS Code, the
   * `tableDesign.inferDesign` command); resolves when it has ended. A host
   * without it answers the page that inferring is not available there.
   */
  inferDesign?(table: string): Promise<void>;
  /** The text of each design open in the host's editors (the filter editor completes their properties); none without it. */
  openDesigns?(): string[];
}
