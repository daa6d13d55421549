/**
 * Read-then-write over TypeScript code: `getEntity` followed by a write of
 * the same keys in one function, two round trips and a race between them.
 */
import ts from "typescript";
import { TextEdit } from "../../core";
import { span, text, TsRule } from "./rule";

const functionOf = (n: ts.Node) => {
  let p: ts.Node | undefined = n.parent;
  while (p && !ts.isFunctionLike(p)) p = p.parent;
  return p;
};

export const readBeforeWrite: TsRule = {
  code: "ts/read-before-write",
  severity: "info",
  family: "TypeScript code",
  docs: {
    summary: "`getEntity` then `createEntity`/`updateEntity` on the same keys",
    why: "Two round trips, and another writer can change the entity between them.",
    fix: "`upsertEntity(entity, \"Merge\")`",
  },
  check(ctx) {
    const sf = ctx.sf;
    for (const read of ctx.usage.keyed) {
      if (read.method !== "getEntity") continue;
      const fn = functionOf(read.call);
      const pk = text(sf, read.partitionKey);
      const rk = text(sf, read.rowKey);
      const write = ctx.usage.writes.find((w) => (w.method === "createEntity" || w.method === "updateEntity") && functionOf(w.call) === fn &&
        w.call.getStart(sf) > read.call.getStart(sf) && w.partitionKey && w.rowKey && text(sf, w.partitionKey) === pk && text(sf, w.rowKey) === rk);
      if (!write || !ts.isPropertyAccessExpression(write.call.expression)) continue;
      const edits: TextEdit[] = [{ start: write.call.expression.name.getStart(sf), end: write.call.getEnd(), newText: `upsertEntity(${text(sf, write.call.arguments[0])}, "Merge")` }];
      const readStatement = ts.isAwaitExpression(read.call.parent) ? read.call.parent.parent : read.call.parent;
      if (ts.isExpressionStatement(readStatement)) edits.push({ start: readStatement.getFullStart(), end: readStatement.getEnd(), newText: "" });
      ctx.report(span(sf, read.call), `getEntity then ${write.method} on the same keys: two round trips and a race between them. upsertEntity(entity, "Merge") does it in one, atomically.`, {
        fixes: [{ title: `Use upsertEntity(${text(sf, write.call.arguments[0])}, "Merge")`, edits, preferred: true }],
      });
    }
  },
};
