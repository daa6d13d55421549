/**
 * `tdl mcp`, declared: a Model Context Protocol server on stdin/stdout for
 * coding agents (cli/commands/mcp/server.ts), over the tools of agent-tools/.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { UsageError } from "@core/errors";
import { workspaceConnections } from "@agent-tools";
import { command } from "../command";
import { flag, text } from "../options";
import { existingFolder, existingPath } from "../validate";
import { serveStdio } from "./mcp/server";
import { EXIT } from "../failure";

export const mcp = command({
  name: "mcp",
  summary: "Serve the design tools to coding agents over the Model Context Protocol (stdio): check, classify, fix, cost, rules, tables",
  description:
    "Tools: check_design, check_code, classify_query, preview_fix, estimate_cost, explain_rule, and on named connections list_tables, query_entities, infer_design, stress_test; resources: the language reference and each rule's entry. Paths are read and written only inside --workspace; a connection is named ('emulator', an entry of tdl-connections.json, or TDL_CONNECTION_<NAME>), its secret never passes through a tool. Logs go to stderr.",
  exits: "0 the client closed the connection; 2 bad usage (a workspace that is not a folder, an unreadable connections file)",
  options: {
    workspace: text("DIR", "the folder whose files the tools may read and write (default: the current folder)"),
    connections: text("FILE", "the connections file (default: tdl-connections.json in the workspace, if there is one)"),
    "allow-account-stress": flag("let stress_test load a connection other than the embedded emulator (it costs money)"),
  },
  async run({ options }, io) {
    // A folder or a connections file that is not there is said as every command says it, before the server starts.
    if (options.workspace !== undefined) existingFolder(options.workspace);
    if (options.connections !== undefined) existingPath(options.connections);
    const workspace = path.resolve(options.workspace ?? ".");
    if (!fs.statSync(workspace, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`--workspace ${workspace} is not a folder`);
    const connections = workspaceConnections(workspace, options.connections);
    await serveStdio({ workspace, connections, allowAccountStress: !!options["allow-account-stress"] }, (line) =>
      io.err(`tdl mcp: ${line}\n`),
    );
    return { stdout: "", stderr: "", exitCode: EXIT.clean };
  },
});
