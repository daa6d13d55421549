/**
 * The agent tools (agent-tools/) in VS Code's agent mode: each registered
 * with `vscode.lm.registerTool` under the name package.json contributes
 * (`npm run docs:commands` writes the contribution from the same registry),
 * over the first workspace folder and the table explorer's connections.
 * A tool that touches an account asks first (`confirmationMessages`), naming
 * the connection and what the tool does; the design tools run without
 * asking, and only read unless `apply` is set (preview_fix then asks too).
 * An answer is the tool's JSON, as `tdl mcp` gives it; a failure is the
 * tool's one sentence, thrown for the chat to show.
 */
import * as vscode from "vscode";
import { AccountSession, type Secret } from "@runtime";
import type { ConnectionInfo } from "@protocol";
import { InputError, UsageError } from "@core/errors";
import { callTool, TOOLS, vscodeToolName, type AnyTool, type Connections, type OpenConnection } from "@agent-tools";
import type { EmulatorHost } from "./emulator-host";
import type { VsCodeConnectionStore } from "./connection-store";

/** What the tools need of the extension: the explorer's connections and the emulator it runs. */
export interface AgentToolHost {
  store: VsCodeConnectionStore;
  emulator: EmulatorHost;
  /** The explorer's active session, if it has one: the default connection. */
  active: () => AccountSession | undefined;
  log: (line: string) => void;
}

/** Registers every tool; the disposables go to the extension's subscriptions. */
export function registerAgentTools(host: AgentToolHost): vscode.Disposable[] {
  const connections = explorerConnections(host);
  return TOOLS.map((tool) =>
    vscode.lm.registerTool<Record<string, unknown>>(vscodeToolName(tool.name), {
      prepareInvocation: (options) => prepare(tool, options.input, host),
      async invoke(options, token) {
        const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? "";
        const abort = new AbortController();
        const cancel = token.onCancellationRequested(() => abort.abort());
        try {
          const answer = await callTool(
            tool,
            options.input,
            { workspace, connections, allowAccountStress: false, signal: abort.signal },
            host.log,
          );
          if (!answer.ok) throw new Error(answer.message);
          return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(answer.text)]);
        } finally {
          cancel.dispose();
        }
      },
    }),
  );
}

/** The confirmation a tool needs: before an account is read or loaded, and before a design is written. */
function prepare(tool: AnyTool, input: Record<string, unknown>, host: AgentToolHost): vscode.PreparedToolInvocation {
  const invocationMessage = `${tool.title}…`;
  if (tool.touchesAccount) {
    const name =
      typeof input.connection === "string" ? input.connection : (host.active()?.connection.name ?? "the explorer's active connection");
    const what = tool.name === "stress_test" ? "load it with a stress test" : "read it";
    return {
      invocationMessage,
      confirmationMessages: {
        title: `${tool.title}: ${name}`,
        message: new vscode.MarkdownString(`The agent asks to ${what} on the connection **${name}** with *${tool.name}*. Allow?`),
      },
    };
  }
  if (tool.writes && input.apply === true)
    return {
      invocationMessage,
      confirmationMessages: {
        title: `${tool.title}: write ${String(input.path)}`,
        message: new vscode.MarkdownString(`The agent asks to write the fixed design to \`${String(input.path)}\`. Allow?`),
      },
    };
  return { invocationMessage };
}

/** The explorer's connections by name, the active one by default, and the extension's emulator as `emulator`. */
function explorerConnections(host: AgentToolHost): Connections {
  const names = () => [...new Set(["emulator", ...host.store.list().map((c) => c.name)])].sort();
  return {
    names,
    async open(name): Promise<OpenConnection> {
      const active = host.active();
      if (name === undefined || name === active?.connection.name) {
        if (!active) throw new UsageError(`no connection is active in the table explorer: name one (connections: ${names().join(", ")})`);
        return opened(active.connection.name, active, (await host.store.secret(active.connection.id)) ?? {}, false);
      }
      if (name === "emulator") {
        const { info, secret } = await host.emulator.start();
        return { ...opened(name, new AccountSession(info, secret), secret, true), throttle: host.emulator.throttle };
      }
      const info = host.store.list().find((c) => c.name === name);
      const secret = info && (await host.store.secret(info.id));
      if (!info || !secret)
        throw new InputError(`no connection named ${JSON.stringify(name.slice(0, 100))} (connections: ${names().join(", ")})`);
      return opened(name, new AccountSession(info, secret), secret, false);
    },
    close: async () => undefined,
  };
}

function opened(name: string, session: AccountSession, secret: Secret, embedded: boolean): OpenConnection {
  const connection: ConnectionInfo = session.connection;
  return { name, session, connection, secret, embedded, local: connection.kind === "emulator" };
}
