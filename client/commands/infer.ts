/**
 * `tableDesign.inferDesign` ("Infer a Design from a Table…"): pick a table
 * of the current connection (or of the embedded emulator when there is
 * none), read a spread-out sample with a cancellable progress notification,
 * and open the inferred design as a new `.tdl` document, which the language
 * server then checks. The explorer's table list can pass the table name as
 * the command's argument and skip the pick.
 */
import * as vscode from "vscode";
import { AccountSession, InferError, inferFromTable, type TableInference } from "@runtime";
import { EmulatorHost } from "../vscode/emulator-host";
import { formatCount } from "@core/text/words";

/** Largest sample the input box accepts: a sample is held in memory. */
const MAX_SAMPLE = 1_000_000;

export class InferCommand {
  constructor(
    private readonly emulator: EmulatorHost | undefined,
    private readonly current: () => AccountSession | undefined,
  ) {}

  /** Runs the command; `table` skips the pick (the explorer's entry point). */
  async run(table?: string): Promise<void> {
    const session = this.current() ?? (await this.emulatorSession());
    if (!session) {
      if (!this.emulator)
        void vscode.window.showErrorMessage("Infer a design: connect to an account first (Table Design: Connect to an Account…).");
      return;
    }
    const name = typeof table === "string" && table ? table : await this.pickTable(session);
    if (!name) return;
    const raw = await vscode.window.showInputBox({
      title: `Infer a design from ${name}: entities to sample`,
      value: "10000",
      validateInput: (v) =>
        /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= MAX_SAMPLE ? undefined : `a whole number from 1 to ${formatCount(MAX_SAMPLE)}`,
    });
    if (!raw) return;
    let result: TableInference | undefined;
    try {
      result = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Reading ${name}`, cancellable: true },
        async (progress, token) => {
          const abort = new AbortController();
          token.onCancellationRequested(() => abort.abort());
          let shown = 0;
          const r = await inferFromTable(session, name, {
            sample: Number(raw),
            signal: abort.signal,
            onProgress: (p) => {
              const share = (100 * p.entities) / p.target;
              progress.report({
                message: `${formatCount(p.entities)} of up to ${formatCount(p.target)} entities (${p.requests} requests)`,
                increment: share - shown,
              });
              shown = share;
            },
          });
          // Cancel means stop: a design from part of a read is what `tdl infer`'s Ctrl+C is for.
          return token.isCancellationRequested ? undefined : r;
        },
      );
    } catch (e) {
      if (e instanceof DOMException && e.name === "AbortError") return;
      void vscode.window.showErrorMessage(
        e instanceof InferError ? `Infer a design: ${e.message}` : `Could not read ${name}: ${(e as Error).message}`,
      );
      return;
    }
    if (!result) return;
    const doc = await vscode.workspace.openTextDocument({ language: "tdl", content: result.text });
    await vscode.window.showTextDocument(doc);
    const c = result.check;
    void vscode.window.showInformationMessage(
      `Inferred ${name} from ${formatCount(c.total)} entities in ${formatCount(result.stats.partitions)} partitions: ` +
        `the key expressions rebuild ${pct(c.partitionKey, c.total)} of PartitionKeys and ${pct(c.anyRowKey, c.total)} of RowKeys. The header comment says what was read and how sure each fact is.`,
    );
  }

  /** Without a connection, the embedded emulator (started if need be), like the stress test. */
  private async emulatorSession(): Promise<AccountSession | undefined> {
    if (!this.emulator) return undefined;
    try {
      const { info, secret } = await this.emulator.start();
      return new AccountSession(info, secret);
    } catch (e) {
      void vscode.window.showErrorMessage(`Could not start the emulator: ${(e as Error).message}`);
      return undefined;
    }
  }

  private async pickTable(session: AccountSession): Promise<string | undefined> {
    let tables: string[];
    try {
      tables = await session.listTables();
    } catch (e) {
      void vscode.window.showErrorMessage(`Could not list the tables of ${session.connection.name}: ${(e as Error).message}`);
      return undefined;
    }
    if (!tables.length) {
      void vscode.window.showInformationMessage(`${session.connection.name} has no tables to infer a design from.`);
      return undefined;
    }
    return vscode.window.showQuickPick(tables, { title: `Infer a design from a table of ${session.connection.name}` });
  }
}

function pct(part: number, whole: number): string {
  return whole ? `${Math.round((part / whole) * 1000) / 10}%` : "–";
}
