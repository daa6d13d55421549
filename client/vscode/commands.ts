/**
 * The one place the extension registers and runs VS Code commands. Every
 * command is named from the typed list (`COMMANDS`, protocol/commands.ts)
 * and registered through `register`, which runs it inside the one failure
 * mapping (client/vscode/command-failure.ts): a warning or an error with the
 * failure's sentence, a bug pointing to the output channel with its stack
 * logged there, a cancellation silent — never VS Code's generic toast.
 */
import * as vscode from "vscode";
import { COMMANDS, type CommandName } from "@protocol/commands";
import { Notifier, reportFailure, runReported } from "./command-failure";

/** VS Code's notifications and the extension's output channel, as the failure mapping uses them. */
export function vscodeNotifier(output: vscode.OutputChannel): Notifier {
  return {
    warning: (message, ...actions) => vscode.window.showWarningMessage(message, ...actions),
    error: (message, ...actions) => vscode.window.showErrorMessage(message, ...actions),
    log: (line) => output.appendLine(line),
    showLog: () => output.show(true),
  };
}

export class Commands {
  private readonly notify: Notifier;

  constructor(
    private readonly context: vscode.ExtensionContext,
    output: vscode.OutputChannel,
  ) {
    this.notify = vscodeNotifier(output);
  }

  /** Registers command `name` for the extension's lifetime; its failures are reported by their kind. */
  register(name: CommandName, run: (...args: unknown[]) => unknown): void {
    const { id, title } = COMMANDS[name];
    this.context.subscriptions.push(
      vscode.commands.registerCommand(id, (...args: unknown[]) => runReported(title, () => run(...args), this.notify)),
    );
  }

  /** Runs command `name` (registered here, so its failure was already reported: this never rejects for it). */
  execute(name: CommandName, ...args: unknown[]): Thenable<unknown> {
    return vscode.commands.executeCommand(COMMANDS[name].id, ...args);
  }

  /** Reports a failure outside a command (what a command started and left running), as a command's would be. */
  report(title: string, e: unknown): void {
    reportFailure(title, e, this.notify);
  }
}
