/**
 * The Model Context Protocol server of `tdl mcp`: the tools of agent-tools/
 * (one registry, shared with the extension's language model tools) and the
 * documents as resources, over stdio with the SDK's `McpServer`.
 *
 * The tools are served through the SDK's request handlers with their own
 * JSON schemas rather than `McpServer.registerTool`, which takes Zod
 * schemas: the registry's schemas are JSON Schema because package.json's
 * `languageModelTools` needs exactly that, and one declaration serves both.
 * Each answer carries the output as `structuredContent` and as JSON text; a
 * failure is a tool result with `isError` and one sentence, never a
 * protocol error, a stack or a secret (agent-tools/call.ts).
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { agentResources, callTool, TOOLS, type ToolContext } from "@agent-tools";
import { describeError } from "@core/errors";
import { VERSION } from "../../version";

/** The server over the tools and resources, not yet connected. */
export function agentServer(context: ToolContext, log: (line: string) => void): McpServer {
  const mcp = new McpServer({ name: "tdl", title: "Table Design Assistant", version: VERSION }, { capabilities: { resources: {} } });
  mcp.server.registerCapabilities({ tools: {} });
  mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: TOOLS.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: t.inputSchema,
      outputSchema: t.outputSchema,
      annotations: {
        title: t.title,
        readOnlyHint: !t.writes,
        destructiveHint: false,
        idempotentHint: !t.writes,
        openWorldHint: !!t.touchesAccount,
      },
    })),
  }));
  mcp.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = TOOLS.find((t) => t.name === request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `no tool named ${JSON.stringify(request.params.name.slice(0, 100))}`);
    const answer = await callTool(tool, request.params.arguments ?? {}, { ...context, signal: extra.signal }, log);
    return answer.ok
      ? { content: [{ type: "text" as const, text: answer.text }], structuredContent: answer.output as Record<string, unknown> }
      : { content: [{ type: "text" as const, text: answer.text }], isError: true };
  });
  for (const r of agentResources())
    mcp.registerResource(r.name, r.uri, { title: r.title, description: r.description, mimeType: r.mimeType }, (uri) => ({
      contents: [{ uri: uri.href, mimeType: r.mimeType, text: r.read() }],
    }));
  return mcp;
}

/**
 * Largest message read, in bytes. The SDK's transport drops the connection
 * past its default of 10 MiB: a 10 MB design would end the session instead
 * of getting the tools' sentence (the schemas bound a design far below this).
 */
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** Serves on stdin/stdout until the client closes them; the connections (the embedded emulator) are closed after. */
export async function serveStdio(context: ToolContext, log: (line: string) => void): Promise<void> {
  const mcp = agentServer(context, log);
  const transport = new StdioServerTransport(process.stdin, process.stdout, { maxBufferSize: MAX_MESSAGE_BYTES });
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once("end", resolve);
    process.stdin.once("close", resolve);
  });
  await mcp.connect(transport);
  // After connect, which installs the server's own handler: a message that cannot be read is said on stderr.
  const onerror = transport.onerror;
  transport.onerror = (e) => {
    log(`cannot read a message: ${describeError(e)}`);
    onerror?.(e);
  };
  await closed;
  await mcp.close().catch(() => undefined);
  await context.connections.close();
}
