/**
 * `partition/date-not-increasing`: a partition key cut from a datetime by
 * `date(P, format)` while P is not declared `increasing`. A creation or
 * event time is written as it happens, so every write of the moment lands
 * on the current bucket's partition — but the load rules only know it when
 * the design says so. The fix declares the fact; it reveals what the load
 * rules then find (append-only, hot) rather than causing it.
 */
import { tableFacts } from "../model/facts";
import { Fix } from "../findings";
import { defineRule } from "./rule";

export const dateNotIncreasing = defineRule({
  code: "partition/date-not-increasing",
  severity: "info",
  family: "Partitions and load",
  traits: { partition: true },
  docs: {
    summary: "the partition key is a time bucket (`date(P, format)`) of a datetime that is not declared `increasing` (nor `decreasing`)",
    why: "A creation or event time moves with the clock: every write of the moment lands on the current bucket's partition. Declared `increasing`, the load rules judge that partition (append-only, hot); undeclared, they cannot see it.",
    fix: "declare the property `increasing` (a fact about the data, when it is the time entities are written)",
  },
  messages: {
    undeclared: (p: { adjective: string; name: string; unit: string }) =>
      `the partition key is ${/^[aeiou]|^hour/.test(p.adjective) ? "an" : "a"} ${p.adjective} bucket of '${p.name}', which is not declared increasing: ` +
      `if entities are written as it happens (a creation or event time), every write of the moment lands on the current ${p.unit}'s partition, ` +
      `and the load rules cannot see it. Declare '${p.name}' increasing if it is.`,
  },

  checkTable(ctx) {
    const pk = tableFacts(ctx.table, ctx.props).est.pk;
    const part = pk?.parts.find((p) => p.fn === "date" && p.prop?.type === "datetime" && p.timeBucket);
    const prop = part?.prop;
    if (!pk || !part || !prop || prop.increasing || prop.decreasing || part.monotonic) return;
    const decl = prop.decl;
    const fix: Fix = {
      title: `Declare ${prop.name} increasing (a fact, if entities are written as ${prop.name} happens: the load rules then judge the current partition)`,
      edits: [{ start: decl.end, end: decl.end, newText: " increasing" }],
      preferred: true,
      fact: true,
    };
    const bucket = part.timeBucket!;
    ctx.report(part.part, "undeclared", { adjective: bucket.adjective, name: prop.name, unit: bucket.unit }, { fixes: [fix] });
  },
});
