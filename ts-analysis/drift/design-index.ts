/**
 * The design index: the `.tdl` designs of a workspace or project, as the
 * drift rules read them — each declared table by name with its key shapes
 * (partition key, row key, every `index` row key), the classes of its
 * declared queries, the service profile of its design and where the design
 * lives (for the "generate the key builders" command).
 */
import { analyzeTdl, Classification, designFingerprint, ServiceProfile, TableModel, TdlAnalysis, tableFacts } from "@core";
import { designShape, Shape } from "./shape";

/** One declared table, ready for comparison with code. */
export interface DesignTable {
  name: string;
  profile: ServiceProfile;
  /** The design's file name or URI (the argument of `tableDesign.generateKeyBuilders`). */
  source: string;
  partitionKey?: Shape;
  /** The row key first, then each index's row key (labelled by the index name). */
  rowKeys: Array<{ label: string; shape: Shape }>;
  /** The declared queries with their classes (those whose filter the analysis could classify). */
  queries: Array<{ name: string; classification: Classification }>;
  /** The property names the keys use, design spelling (the builder's argument). */
  keyProps: { partitionKey: string[]; rowKeys: string[][] };
  /** The design's fingerprint of the table as it is now (`designFingerprint`): a generated module carries the one it was made from. */
  fingerprint: string;
  /** The table does not parse: its keys and queries are not what the author means yet, so drift is not judged. */
  broken: boolean;
}

/** Looks a table up by name (exact, as the code names the table). */
export type DesignLookup = (table: string | undefined) => DesignTable | undefined;

const memo = new WeakMap<TableModel, DesignTable>();

/** A table of an analysed design as the drift rules see it; computed once per table model. */
export function designTable(tm: TableModel, analysis: Pick<TdlAnalysis, "profile">, source: string): DesignTable {
  const hit = memo.get(tm);
  if (hit && hit.source === source && hit.profile === analysis.profile) return hit;
  const t = tm.table;
  const queries = tm.checked
    ? tableFacts(t, tm.props).queries.flatMap((q) =>
        q.classification ? [{ name: q.query.name.text, classification: q.classification }] : [],
      )
    : [];
  const out: DesignTable = {
    name: t.name.text,
    profile: analysis.profile,
    source,
    queries,
    partitionKey: t.partitionKey ? designShape(t.partitionKey.expr, tm.props) : undefined,
    rowKeys: [
      ...(t.rowKey ? [{ label: "rowKey", shape: designShape(t.rowKey.expr, tm.props) }] : []),
      ...t.indexes.map((ix) => ({ label: `index ${ix.name.text}`, shape: designShape(ix.expr, tm.props) })),
    ],
    keyProps: { partitionKey: [], rowKeys: [] },
    fingerprint: designFingerprint(tm, analysis.profile.name),
    broken: t.hasSyntaxError,
  };
  out.keyProps = {
    partitionKey: out.partitionKey ? propsOf(out.partitionKey) : [],
    rowKeys: out.rowKeys.map((r) => propsOf(r.shape)),
  };
  memo.set(tm, out);
  return out;
}

function propsOf(shape: Shape): string[] {
  return [...new Set(shape.flatMap((s) => (s.kind === "slot" ? s.props : [])))];
}

/** Every table of a design text, by name (the first declaration of a name wins). */
export function tablesOfDesign(text: string, source: string, into = new Map<string, DesignTable>()): Map<string, DesignTable> {
  const analysis = analyzeTdl(text);
  for (const tm of analysis.tables) {
    if (!into.has(tm.table.name.text)) into.set(tm.table.name.text, designTable(tm, analysis, source));
  }
  return into;
}
