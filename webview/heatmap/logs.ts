/**
 * Below a heatmap of a service's logs: the hottest partitions (entities
 * read, written and throttled, requests, the busiest bucket's rate, the
 * design key each matches), the design's predicted hottest partition
 * beside the observed ones with the error, the requests over several
 * partitions (with the PartitionKey ranges queried), and what was skipped.
 * Every text from the logs goes in as text, never as markup.
 */
import type { HeatmapState } from "@protocol/pages";
import type { TableComparison } from "@protocol/log-heatmap";
import { formatCount as n, plural } from "@core/text/words";
import { h } from "../dom";

type Logs = NonNullable<HeatmapState["logs"]>;

const LISTED = 20;
const pct = (v: number | null) => (v === null ? "—" : `${(v * 100).toFixed(1)} %`);

/** The page's one-line summary of the logs. */
export function logsSummary(l: Logs): string {
  const span = l.from && l.to ? `${l.from} – ${l.to}` : "no request in the window";
  return `${plural(l.lines, "log entry", "log entries")} read (${n(l.skipped)} skipped as malformed), ${span}; cells of a ${l.bucketName}; ${plural(l.partitionCount, "partition")}.`;
}

function table(head: string[], rows: Array<Array<Node | string>>, numeric: number[]): HTMLTableElement {
  const cell = (tag: "th" | "td", c: Node | string, i: number) => h(tag, { class: numeric.includes(i) ? "num" : undefined }, c);
  return h(
    "table",
    { class: "heatmap-table" },
    h("thead", {}, h("tr", {}, ...head.map((t, i) => cell("th", t, i)))),
    h("tbody", {}, ...rows.map((r) => h("tr", {}, ...r.map((c, i) => cell("td", c, i))))),
  );
}

const code = (text: string) => h("code", {}, text);

/** A partition's key, labelled when it is a stress run's probe or marker, or when its figures may be short (folded for memory). */
function keyCell(p: Logs["partitions"][number]): HTMLElement {
  return h(
    "span",
    { class: p.probe ? "probe" : undefined },
    code(p.partitionKey),
    p.probe ? h("span", { class: "key-label" }, " calibration probe: not the design's load") : undefined,
    p.shortBy ? h("span", { class: "key-label" }, ` may be short by up to ${n(p.shortBy)}`) : undefined,
  );
}

/** The lists below the map. */
export function logLists(l: Logs): HTMLElement {
  const out = h("section", { class: "heatmap-lists", "aria-label": "Partitions and notes" });
  if (l.partitions.length) {
    const withDesign = l.partitions.some((p) => p.design !== undefined);
    out.append(
      h("h2", {}, "Hottest partitions"),
      table(
        ["table", "partition key", "read", "written", "throttled", "requests", "failed", "peak/s", ...(withDesign ? ["design key"] : [])],
        l.partitions
          .slice(0, LISTED)
          .map((p) => [
            p.table,
            keyCell(p),
            n(p.entities.read),
            n(p.entities.written),
            n(p.entities.throttled),
            n(p.operations),
            n(p.failed),
            n(p.peakPerSecond),
            ...(withDesign ? [p.design ? `${p.design.table}: ${p.design.partitionKey}` : "none of the design's"] : []),
          ]),
        [2, 3, 4, 5, 6, 7],
      ),
    );
  }
  if (l.design) {
    out.append(
      h("h2", {}, `Against the design (${l.design.file})`),
      ...l.design.tables.map(comparison),
      h("p", { class: "note" }, l.design.note),
    );
    if (l.design.unmatchedTables.length) out.append(h("p", {}, `No design table matches ${l.design.unmatchedTables.join(", ")}.`));
  }
  if (l.unattributed.length) {
    out.append(
      h("h2", {}, "Requests over several partitions"),
      table(
        ["table", "requests", "throttled", "by class", "ranges queried (pages)"],
        l.unattributed.map((u) => [
          u.table,
          n(u.operations),
          n(u.throttled),
          Object.entries(u.byClass)
            .map(([k, v]) => `${k} ${n(v)}`)
            .join(", "),
          u.ranges.map((r) => `${r.from ?? "…"} – ${r.to ?? "…"} (${n(r.pages)})`).join("; "),
        ]),
        [1, 2],
      ),
    );
  }
  const notes = [
    ...l.notes,
    ...l.files.filter((f) => f.problem).map((f) => `${f.file}: ${f.problem}`),
    ...l.skippedExamples.map((s) => `skipped ${s.file}:${s.line}: ${s.reason}`),
  ];
  if (notes.length) out.append(h("h2", {}, "Notes"), h("ul", {}, ...notes.map((t) => h("li", {}, t))));
  return out;
}

function comparison(t: TableComparison): HTMLElement {
  return h(
    "div",
    { class: "heatmap-design" },
    h(
      "h3",
      {},
      `${t.logTable} as ${t.designTable}: partitionKey = ${t.partitionKey} (${n(t.matched)} of ${n(t.matched + t.unmatched)} keys match)`,
    ),
    h("p", {}, `${t.said.predicted} ${t.said.error}`),
    table(
      ["observed hottest", "entities", "peak/s", "share"],
      t.observed.hottest.map((o) => [code(o.partitionKey), n(o.entities), n(o.peakPerSecond), pct(o.share)]),
      [1, 2, 3],
    ),
  );
}
