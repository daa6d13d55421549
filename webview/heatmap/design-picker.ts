/**
 * Above a heatmap of logs: the design of the workspace to set them against
 * (or none), the design table every log table is read as (or each matched
 * by its name or its keys), and the scale of the design's rates (a stress
 * run's, typed as it was: 0.0063). A change asks the host to compare again
 * (`heatmap.compare`), which remembers the choice for the workspace; the
 * lists below are drawn again with the answer.
 */
import type { HeatmapState, LogComparison, LogDesignChoice } from "@protocol/pages";
import { h } from "../dom";

type Logs = NonNullable<HeatmapState["logs"]>;

/** The picker's element; `compare` asks the host, `shown` draws the answer. */
export function designPicker(
  logs: Logs,
  compare: (choice: LogDesignChoice) => Promise<LogComparison>,
  shown: (answer: LogComparison) => void,
): HTMLElement | undefined {
  const designs = logs.designs ?? [];
  if (!designs.length) return undefined;
  const choice = logs.choice ?? {};
  const design = h(
    "select",
    { class: "design-choice", "aria-label": "Design" },
    h("option", { value: "" }, "No design"),
    ...designs.map((d) => h("option", { value: d.label, selected: d.label === choice.design }, d.label)),
  );
  const table = h("select", { class: "table-choice", "aria-label": "Design table" });
  const scale = h("input", {
    class: "scale-choice",
    "aria-label": "Scale of the design's rates",
    type: "text",
    inputmode: "decimal",
    placeholder: "1",
    value: choice.scale ?? "",
    size: 8,
  });
  const fillTables = (selected: string | undefined) => {
    const d = designs.find((x) => x.label === design.value);
    table.replaceChildren(
      h("option", { value: "" }, "Each log table by its name or keys"),
      ...(d?.tables ?? []).map((t) => h("option", { value: t, selected: t === selected }, t)),
    );
    table.disabled = scale.disabled = !d;
  };
  fillTables(choice.table);
  const ask = () => {
    const c: LogDesignChoice = design.value
      ? {
          design: design.value,
          ...(table.value ? { table: table.value } : {}),
          ...(scale.value.trim() ? { scale: scale.value.trim() } : {}),
        }
      : {};
    // A refused choice is shown by the page (showProblem); the lists stay as they were.
    compare(c).then(shown, () => undefined);
  };
  design.addEventListener("change", () => {
    fillTables(undefined);
    ask();
  });
  table.addEventListener("change", ask);
  scale.addEventListener("change", ask);
  return h(
    "form",
    { class: "design-picker", onsubmit: (e: Event) => (e.preventDefault(), ask()) },
    h("label", {}, "Set against ", design),
    h("label", {}, " table ", table),
    h("label", {}, " rates × ", scale),
  );
}
