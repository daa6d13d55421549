/**
 * `tdl mcp` as an agent runs it: `node dist/cli.js mcp` spawned over stdio,
 * driven by the MCP SDK's own `Client` and `StdioClientTransport`. What the
 * server writes on stderr is kept, to check that it holds no secret.
 */
import * as path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const CLI = process.env.TDL_CLI ? path.resolve(process.env.TDL_CLI) : path.resolve("dist/cli.js");

export interface McpSession {
  client: Client;
  /** What the server wrote on stderr so far. */
  stderr(): string;
  close(): Promise<void>;
}

/** Starts the server with `args` (after `mcp`) and `env` on top of this process's, and connects a client. */
export async function startMcp(args: string[] = [], env: Record<string, string> = {}, cwd = process.cwd()): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "mcp", ...args],
    env: { ...(process.env as Record<string, string>), TDL_DEBUG: "", ...env },
    cwd,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
  const client = new Client({ name: "tdl-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

/** A tool's answer: its text, whether it is an error, and its structured output. */
export async function call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ text: string; isError: boolean; output: Record<string, unknown> | undefined }> {
  const r = (await client.callTool({ name, arguments: args })) as {
    content: Array<{ type: string; text?: string }>;
    isError?: boolean;
    structuredContent?: Record<string, unknown>;
  };
  return { text: r.content.map((c) => c.text ?? "").join(""), isError: !!r.isError, output: r.structuredContent };
}
