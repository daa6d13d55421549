import { app, InvocationContext, Timer } from "@azure/functions";
import { odata, TransactionAction } from "@azure/data-tables";
import { getTableClient } from "../shared/tables";

app.timer("cleanup", {
  schedule: "0 0 3 * * *",
  handler: async (_t: Timer, ctx: InvocationContext) => {
    const counters = getTableClient("counters");
    const stale: TransactionAction[] = [];
    const cutoff = new Date(Date.now() - 30 * 86_400_000);
    for await (const e of counters.listEntities({ queryOptions: { filter: odata`PartitionKey eq ${"pages"} and Timestamp lt ${cutoff}` } })) { // query: row-range
      stale.push(["delete", { partitionKey: e.partitionKey!, rowKey: e.rowKey! }]);
      if (stale.length === 100) await counters.submitTransaction(stale.splice(0));
    }
    if (stale.length) await counters.submitTransaction(stale);
    ctx.log("cleanup done");
  },
});
