// Notes of an MCP server, kept in Azure Table Storage: one partition per user,
// newest first thanks to a reverse timestamp in the row key.
import { TableClient, odata } from "@azure/data-tables";

const table = TableClient.fromConnectionString(process.env.NOTES_CONNECTION ?? "UseDevelopmentStorage=true", "notes");

/** Row keys sort newest first: the log-tail pattern. */
const newestFirst = () => String(8_640_000_000_000_000 - Date.now()).padStart(16, "0");

export async function addNote(user, text, tags = []) {
  const note = { partitionKey: user, rowKey: newestFirst(), text, tags: tags.join(",") };
  await table.createEntity(note);
  return note.rowKey;
}

export async function recentNotes(user, limit = 20) {
  const out = [];
  for await (const n of table.listEntities({ queryOptions: { filter: odata`PartitionKey eq ${user}` } })) { // query: row-range
    out.push(n);
    if (out.length >= limit) break;
  }
  return out;
}

/** The model writes its own filter: the server passes it on, scoped to the user. */
export async function searchNotes(user, modelFilter) {
  const filter = `PartitionKey eq '${user}' and (${modelFilter})`;
  const out = [];
  for await (const n of table.listEntities({ queryOptions: { filter } })) out.push(n); // query: unknown
  return out;
}

export async function allNotes() {
  const out = [];
  for await (const n of table.listEntities()) out.push(n); // expect: ts/table-scan // query: table-scan
  return out;
}

export async function tagUsage() {
  let filter;
  filter = "tags ne ''";
  const counts = new Map();
  for await (const n of table.listEntities({ queryOptions: { filter } })) { // expect: ts/table-scan // query: table-scan
    for (const t of String(n.tags).split(",")) counts.set(t, (counts.get(t) ?? 0) + 1);
  }
  return counts;
}

export async function forget(user, rowKey) {
  await table.deleteEntity(user, rowKey);
}
