// The MCP tools: each call reads or writes through storage.mjs.
import { addNote, recentNotes, searchNotes, allNotes, forget } from "./storage.mjs";

const tools = {
  add_note: async ({ user, text, tags }) => ({ id: await addNote(user, text, tags) }),
  recent: async ({ user, limit }) => recentNotes(user, limit),
  search: async ({ user, filter }) => searchNotes(user, filter),
  export_all: async () => allNotes(),
  forget: async ({ user, id }) => forget(user, id),
};

process.stdin.setEncoding("utf8");
let buffer = "";
process.stdin.on("data", async (chunk) => {
  buffer += chunk;
  let nl;
  while ((nl = buffer.indexOf("\n")) >= 0) {
    const line = buffer.slice(0, nl);
    buffer = buffer.slice(nl + 1);
    const { id, method, params } = JSON.parse(line);
    const tool = tools[method];
    const result = tool ? await tool(params ?? {}) : { error: `unknown tool ${method}` };
    process.stdout.write(JSON.stringify({ id, result }) + "\n");
  }
});
