/**
 * A tool for coding agents, declared once: its name, what it does, the JSON
 * schemas of its input and output, whether it touches an account, and its
 * handler. The registry (index.ts) lists them; `tdl mcp` serves them over
 * the Model Context Protocol (cli/commands/mcp/server.ts) and the extension registers
 * the same records as VS Code language model tools (client/vscode/agent-tools.ts).
 * Nothing here knows a transport: a handler takes its checked input and a
 * context, and returns a JSON object or throws a TdlError (core/errors.ts).
 */
import type { Connections } from "./connections";

/** The subset of JSON Schema the tools' inputs and outputs are written in (validate.ts checks inputs against it). */
export interface JsonSchema {
  type?: "object" | "string" | "number" | "integer" | "boolean" | "array" | "null";
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: readonly (string | number)[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  anyOf?: JsonSchema[];
}

/** What a handler may use beyond its input: where the workspace is, the named connections, what the server allows. */
export interface ToolContext {
  /** The workspace's root, absolute: paths are read and written only inside it. */
  readonly workspace: string;
  /** The connections a tool may name (connections.ts): never their secrets. */
  readonly connections: Connections;
  /** `tdl mcp --allow-account-stress`: stress_test may load a connection that is not the embedded emulator. */
  readonly allowAccountStress: boolean;
  /** Cancels a long call (the client went away). */
  readonly signal?: AbortSignal;
}

export interface AgentTool<I = Record<string, unknown>, O extends object = object> {
  /** snake_case, as agents call it. */
  readonly name: string;
  /** A few words, for a human reading the tool list. */
  readonly title: string;
  /** What it does and when to call it, for the model. */
  readonly description: string;
  readonly inputSchema: JsonSchema & { type: "object" };
  readonly outputSchema: JsonSchema & { type: "object" };
  /** Reads or writes a table account: VS Code asks before it runs, and the MCP annotations say it is open-world. */
  readonly touchesAccount?: boolean;
  /** Changes something (a file with `apply`, a table): false for the tools that only read. */
  readonly writes?: boolean;
  readonly run: (input: I, context: ToolContext) => O | Promise<O>;
}

/** A tool as the registry holds it, whatever its input. */
export type AnyTool = AgentTool<Record<string, unknown>, object>;

/** Declares a tool, its handler typed by its input. */
export function defineTool<I, O extends object>(tool: AgentTool<I, O>): AnyTool {
  return tool as unknown as AnyTool;
}
