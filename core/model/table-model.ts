/**
 * A table of a design as the rules and the IDE features see it: its tree,
 * where its chunk sits in the document, its properties and their references.
 */
import { Table } from "../tdl/ast";
import { PropertyInfo } from "./properties";
import { PropertyRef } from "./references";

export interface TableModel {
  /** The table's tree, with offsets relative to `base`. */
  table: Table;
  /** Offset of the table's chunk in the document: add it to every offset of `table` and `refs`. */
  base: number;
  /** The chunk's text (what `table`'s offsets index). */
  text: string;
  props: Map<string, PropertyInfo>;
  refs: PropertyRef[];
  /**
   * The design rules ran on this table: it parses and fits the analysis
   * budget (`budget.ts`). Its facts (`model/facts.ts`) are cheap only then,
   * so hovers, lenses and reports classify its queries only then.
   */
  checked: boolean;
}
