/**
 * A stress run's own bookkeeping in its logs: the calibration probe's
 * partitions (`~probe-00` … `~probe-64`, spread inserts that measure the
 * machine) and the marker entity's partition (`~tdl-stress-marker`). They
 * are no part of the design's load, so the heatmap labels them, moves them
 * below the design's partitions, leaves them out of the map's cells and
 * timeline, and the comparison with the design leaves them out of its
 * shares and keys.
 */
import type { LogHeatmap, PartitionSummary } from "@protocol/log-heatmap";
import { formatCount, plural } from "@core/text/words";

/** A stress run's table: `stress` and ten hex digits (runtime/stress names them so). */
const STRESS_TABLE = /^stress[0-9a-f]{10}$/i;

/** Whether `partitionKey` of `table` is a stress run's calibration probe or marker, not its load. */
export function isStressBookkeeping(table: string, partitionKey: string): boolean {
  return STRESS_TABLE.test(table) && (/^~probe-\d+$/.test(partitionKey) || partitionKey === "~tdl-stress-marker");
}

/** Marks the bookkeeping partitions of `h` (`probe: true`), lists them last, and takes them out of its cells and timeline. */
export function setBookkeepingApart(h: LogHeatmap): void {
  const apart: PartitionSummary[] = [];
  const load: PartitionSummary[] = [];
  for (const p of h.partitions) {
    if (isStressBookkeeping(p.table, p.partitionKey)) apart.push({ ...p, probe: true });
    else load.push(p);
  }
  if (!apart.length) return;
  h.partitions = [...load, ...apart];
  let entities = 0;
  const timeline = new Map(h.timeline.map((t) => [Date.parse(t.t), t]));
  for (const s of h.seconds)
    for (const id of Object.keys(s.partitions)) {
      const slash = id.indexOf("/");
      if (slash < 0 || !isStressBookkeeping(id.slice(0, slash), id.slice(slash + 1))) continue;
      const c = s.partitions[id];
      const at = timeline.get(s.t);
      if (at) {
        at.entities -= c.reads + c.writes + c.throttled;
        at.throttled -= c.throttled;
      }
      entities += c.reads + c.writes + c.throttled;
      delete s.partitions[id];
    }
  h.notes.push(
    `${plural(apart.length, "partition")} of a stress run's own bookkeeping (its calibration probe, ~probe-NN, and its marker) ${apart.length === 1 ? "is" : "are"} listed last, labelled, and left out of the map, the timeline and the shares (${formatCount(entities)} entities).`,
  );
}
