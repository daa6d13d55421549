// A session store for a web framework, backed by a table: get/set/touch/destroy.
const { TableClient } = require("@azure/data-tables");

class TableSessionStore {
  /** @param {{ connectionString: string, table?: string }} options */
  constructor(options) {
    /** @type {import("@azure/data-tables").TableClient} */
    this.client = TableClient.fromConnectionString(options.connectionString, options.table || "sessions");
  }

  /** Sessions are spread by the first two characters of their random id. */
  static keys(sid) {
    return { partitionKey: sid.slice(0, 2), rowKey: sid };
  }

  async get(sid) {
    const { partitionKey, rowKey } = TableSessionStore.keys(sid);
    try {
      const e = await this.client.getEntity(partitionKey, rowKey); // query: point
      return JSON.parse(e.data);
    } catch (err) {
      if (err.statusCode === 404) return null;
      throw err;
    }
  }

  async set(sid, session, ttlSeconds) {
    await this.client.upsertEntity({ ...TableSessionStore.keys(sid), data: JSON.stringify(session), expires: Date.now() + ttlSeconds * 1000 }, "Replace");
  }

  /** Extends a session: reads it, then writes the new expiry over whatever is there. */
  async touch(sid, ttlSeconds) {
    const { partitionKey, rowKey } = TableSessionStore.keys(sid);
    const current = await this.client.getEntity(partitionKey, rowKey); // expect: ts/read-before-write // query: point
    await this.client.upsertEntity({ partitionKey, rowKey, data: current.data, expires: Date.now() + ttlSeconds * 1000 }, "Replace");
  }

  async destroy(sid) {
    const { partitionKey, rowKey } = TableSessionStore.keys(sid);
    await this.client.deleteEntity(partitionKey, rowKey);
  }

  async expired(now = Date.now()) {
    const out = [];
    for await (const e of this.client.listEntities({ queryOptions: { filter: `expires lt ${now}L` } })) out.push(e.rowKey); // expect: ts/table-scan // query: table-scan
    return out;
  }
}

module.exports = { TableSessionStore };
