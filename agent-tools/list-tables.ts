/** `list_tables`: the tables of a named connection, sorted. */
import { CONNECTION_PROPERTY, onAccount } from "./account-input";
import { defineTool } from "./tool";

export const listTables = defineTool({
  name: "list_tables",
  title: "List a connection's tables",
  description:
    "The tables of a connection named in the workspace's configuration ('emulator' is the embedded emulator), sorted by name. Reads the account; no secret is taken or returned.",
  inputSchema: {
    type: "object",
    properties: { connection: CONNECTION_PROPERTY },
    additionalProperties: false,
  },
  outputSchema: {
    type: "object",
    properties: { connection: { type: "string" }, tables: { type: "array", items: { type: "string" } } },
    required: ["connection", "tables"],
  },
  touchesAccount: true,
  async run(input: { connection?: string }, { connections }) {
    const open = await connections.open(input.connection);
    const tables = await onAccount(`cannot list the tables of ${open.name}`, () => open.session.listTables());
    return { connection: open.name, tables: [...tables].sort() };
  },
});
