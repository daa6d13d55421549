/**
 * `key/mutable-property`: a key renders a property that an update changes
 * (`update Touch sets LastSeen, Status`). The service never changes a key:
 * such an update deletes the entity and inserts it again under its new key —
 * in a partition key, in another partition, so not in one transaction. No
 * quick fix ever puts such a property into a key (`core/fixes/vet.ts`
 * refuses one that would, by this rule's `neverIntroduced` trait).
 */
import { forEachPart } from "../tdl/ast";
import { updatedProperties } from "../model/updates";
import { defineRule } from "./rule";
import { tableKeys } from "./keys";
import { stableKeyFixes } from "./fixes/stable-keys";

export const mutableProperty = defineRule({
  code: "key/mutable-property",
  severity: "warning",
  family: "Keys",
  docs: {
    summary: "a key renders a property that an `update`, `merge` or `upsert` changes (`sets`): each such update must move the entity",
    why: "The service never changes an entity's keys: an update of a key's property is a delete and an insert under the new key — across partitions not even atomic, and every reader of the old key misses it meanwhile. Key by what does not change; keep what changes in a property, or in an index row or a table per state.",
    fix: "the key by what does not change (an emptied key takes the entity's identity); with it, the query that reads by the changing value moves to a table of its own whose entries a state change deletes and inserts, never updates",
  },
  traits: { neverIntroduced: true },
  messages: {
    moves: (p: { name: string; key: string; writes: string[]; partition: boolean }) =>
      `'${p.name}' changes with ${p.writes.map((w) => `'${w}'`).join(", ")}, but the ${p.key} renders it: the service never changes a key, ` +
      `so each such update deletes the entity and inserts it under its new key` +
      (p.partition ? " — in another partition, not in one transaction." : " (in the same partition: one transaction can do both).") +
      " Key by what does not change.",
  },

  checkTable(ctx) {
    const updated = updatedProperties(ctx.table);
    if (!updated.size) return;
    const keys = tableKeys(ctx);
    for (const key of keys) {
      const seen = new Set<string>();
      forEachPart(key.expr, (part) => {
        if (part.kind !== "ref") return;
        const writes = updated.get(part.name.text);
        if (!writes || seen.has(part.name.text)) return;
        seen.add(part.name.text);
        ctx.report(
          part.name,
          "moves",
          {
            name: part.name.text,
            key: key.label,
            writes: writes.map((w) => w.name.text),
            partition: key.label === "partitionKey",
          },
          { fixes: stableKeyFixes(ctx, key, keys, part.name.text) },
        );
      });
    }
  },
});
