import { app, HttpRequest } from "@azure/functions";
import { odata } from "@azure/data-tables";
import { getTableClient } from "../shared/tables";

app.http("stats", {
  methods: ["GET"],
  handler: async (req: HttpRequest) => {
    const visitors = getTableClient("visitors");
    const since = req.query.get("since") ?? "2026-01-01T00:00:00Z";
    let count = 0;
    // Every visit of every page: the whole table, page by page.
    for await (const v of visitors.listEntities({ queryOptions: { filter: odata`Timestamp ge ${new Date(since)}` } })) { // expect: ts/table-scan // query: table-scan
      if (v.partitionKey) count++;
    }
    return { jsonBody: { count } };
  },
});

app.http("search", {
  methods: ["GET"],
  handler: async (req: HttpRequest) => {
    const visitors = getTableClient("visitors");
    // The caller's own OData filter is passed through: nothing to say about it here.
    const filter = req.query.get("filter") ?? undefined;
    const rows = [];
    for await (const v of visitors.listEntities({ queryOptions: { filter } })) rows.push(v); // query: unknown
    return { jsonBody: rows };
  },
});

app.http("page", {
  methods: ["GET"],
  route: "page/{name}",
  handler: async (req: HttpRequest) => {
    const counters = getTableClient("counters");
    const hit = await counters.getEntity<{ count: number }>("pages", req.params.name); // query: point
    return { jsonBody: { count: hit.count } };
  },
});
