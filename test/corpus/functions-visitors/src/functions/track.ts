import { app, HttpRequest, InvocationContext } from "@azure/functions";
import { TableClient } from "@azure/data-tables";
import { getTableClient } from "../shared/tables";

const visitors: TableClient = TableClient.fromConnectionString(process.env.AzureWebJobsStorage ?? "", "visitors");

interface VisitorEntity {
  partitionKey: "VISITOR";
  rowKey: string;
  page: string;
  userAgent: string;
}

app.http("track", {
  methods: ["POST"],
  authLevel: "anonymous",
  handler: async (req: HttpRequest, ctx: InvocationContext) => {
    const page = req.query.get("page") ?? "/";
    const visit: VisitorEntity = {
      partitionKey: "VISITOR", // expect: ts/constant-partition-key
      rowKey: `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
      page,
      userAgent: req.headers.get("user-agent") ?? "",
    };
    await visitors.createEntity(visit);
    ctx.log(`visit to ${page}`);
    return { status: 204 };
  },
});

app.http("hits", {
  methods: ["POST"],
  route: "hits/{page}",
  handler: async (req: HttpRequest) => {
    const counters = getTableClient("counters");
    const page = req.params.page;
    // Read, add one, write back: two visitors at once lose one hit.
    const current = await counters.getEntity<{ count: number }>("pages", page).catch(() => undefined); // expect: ts/read-before-write // query: point
    await counters.upsertEntity({ partitionKey: "pages", rowKey: page, count: (current?.count ?? 0) + 1 }, "Replace"); // expect: ts/constant-partition-key
    return { status: 204 };
  },
});
