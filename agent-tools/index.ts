/**
 * The tools for coding agents (registry.ts), what they need from a front end
 * (a workspace, the connections), and how a front end calls them: the one
 * entry point of agent-tools/ for `tdl mcp` and the extension.
 */
export { TOOLS, toolNamed } from "./registry";
export { callTool, type ToolAnswer } from "./call";
export { languageModelTools, vscodeToolName, withLanguageModelTools } from "./contribution";
export { workspaceConnections, CONNECTIONS_FILE, type Connections, type OpenConnection } from "./connections";
export { agentResources, LANGUAGE_URI, type AgentResource } from "./resources";
export type { AgentTool, AnyTool, JsonSchema, ToolContext } from "./tool";
