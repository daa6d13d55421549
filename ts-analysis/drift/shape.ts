/**
 * Key shapes: a key as a sequence of literal text and slots (a value, padded
 * or not, a hash, a time bucket…), from the design's expression and from
 * the code's decomposed parts alike, so that the two can be compared
 * segment by segment. Adjacent literals merge: `"BIB" + ":"` is `"BIB:"`.
 */
import type ts from "typescript";
import { Expr, isNumberLit, Part, PropertyInfo } from "@core";
import type { TsKeyPart } from "../key-parts";

export interface Lit {
  kind: "lit";
  text: string;
  /** The code's nodes the text comes from (none for the design). */
  nodes: ts.Node[];
}

export interface Slot {
  kind: "slot";
  /**
   * Design: the properties the slot renders (design spelling). Code: the
   * value's name when the expression names one (`order.bib` → "bib").
   */
  props: string[];
  /** How the value is rendered: `pad`, `hash`, `bucket`, `date`, `reverse`; or the code's clock, time-ordered id, counter. */
  fn?: "pad" | "hash" | "bucket" | "date" | "reverse" | "time-id" | "counter";
  /** The pad width or the hash's digits. */
  width?: number;
  /** A bare number (design: an int property; code: a number-typed value). */
  numeric?: boolean;
  /** The code's node (none for the design). */
  node?: ts.Node;
  /** Code: the one text the value's declared type allows (`distance: "Full"`); a literal unless it names a key property. */
  fixedText?: string;
}

export type Segment = Lit | Slot;

/** A call argument that is an expression (not a number or string literal). */
const isExpr = (a: unknown): a is Expr => typeof a === "object" && a !== null && (a as Expr).kind === "expr";
export type Shape = Segment[];

/** The shape of a design key expression. */
export function designShape(expr: Expr, props: ReadonlyMap<string, PropertyInfo>): Shape {
  return merge(expr.parts.map((p) => designSegment(p, props)));
}

function designSegment(p: Part, props: ReadonlyMap<string, PropertyInfo>): Segment {
  if (p.kind === "string") return { kind: "lit", text: p.value, nodes: [] };
  if (p.kind === "ref") {
    const info = props.get(p.name.text);
    return { kind: "slot", props: [p.name.text], numeric: info?.type === "int" || info?.type === "int64" };
  }
  const inner = isExpr(p.args[0]) ? p.args[0] : undefined;
  const names = inner ? refsOf(inner) : [];
  const n = isNumberLit(p.args[1]) && Number.isFinite(p.args[1].value) ? p.args[1].value : undefined;
  switch (p.fnName) {
    case "pad":
      return { kind: "slot", props: names, fn: "pad", width: n };
    case "hash":
      return { kind: "slot", props: names, fn: "hash", width: n ?? 32 };
    case "bucket":
      return { kind: "slot", props: names, fn: "bucket" };
    case "reverse":
      return { kind: "slot", props: names, fn: "reverse" };
    case "date":
      return { kind: "slot", props: names, fn: "date" };
    default: {
      // lower/upper: the inner value, case-mapped; an unknown function: a slot of its properties.
      if (inner && inner.parts.length === 1) return designSegment(inner.parts[0], props);
      return { kind: "slot", props: names };
    }
  }
}

function refsOf(expr: Expr): string[] {
  const out: string[] = [];
  const walk = (e: Expr) => {
    for (const p of e.parts) {
      if (p.kind === "ref") out.push(p.name.text);
      else if (p.kind === "call") for (const a of p.args) if (isExpr(a)) walk(a);
    }
  };
  walk(expr);
  return out;
}

/** The shape of a key the code builds, from its decomposed parts. */
export function codeShape(parts: readonly TsKeyPart[]): Shape {
  return merge(parts.map(codeSegment));
}

function codeSegment(p: TsKeyPart): Segment {
  const props = p.name ? [p.name] : [];
  switch (p.kind) {
    case "literal":
      return { kind: "lit", text: p.text ?? "", nodes: [p.node] };
    case "padded":
      return { kind: "slot", props, fn: "pad", width: p.width, node: p.node };
    case "hash":
      return { kind: "slot", props, fn: "hash", width: p.width, node: p.node };
    case "clock":
      return { kind: "slot", props, fn: "date", node: p.node };
    case "reversed-clock":
      return { kind: "slot", props, fn: "reverse", node: p.node };
    case "time-id":
      return { kind: "slot", props, fn: "time-id", node: p.node };
    case "counter":
      return { kind: "slot", props, fn: "counter", node: p.node };
    default:
      // A value whose type is one string literal: that text, unless it is a property of the key (`compare.ts` decides).
      if (p.literals?.length === 1) return { kind: "slot", props, node: p.node, fixedText: p.literals[0] };
      return { kind: "slot", props, numeric: p.type === "number", node: p.node };
  }
}

/** Merges adjacent literals and drops empty ones. */
export function merge(segments: Segment[]): Shape {
  const out: Shape = [];
  for (const s of segments) {
    const last = out[out.length - 1];
    if (s.kind === "lit" && !s.text) continue;
    if (s.kind === "lit" && last?.kind === "lit")
      out[out.length - 1] = { kind: "lit", text: last.text + s.text, nodes: [...last.nodes, ...s.nodes] };
    else out.push(s);
  }
  return out;
}

/** The literal texts around the slots: `lits[0]` before the first slot, `lits[i]` between slot i−1 and i, the last after every slot. */
export function layout(shape: Shape): { slots: Slot[]; lits: Lit[] } {
  const slots: Slot[] = [];
  const lits: Lit[] = [{ kind: "lit", text: "", nodes: [] }];
  for (const s of shape) {
    if (s.kind === "lit") lits[lits.length - 1] = s;
    else {
      slots.push(s);
      lits.push({ kind: "lit", text: "", nodes: [] });
    }
  }
  return { slots, lits };
}

/** A readable rendering of a shape, for messages: `"BIB:" + pad(Bib, 5) + "__" + Name`. */
export function render(shape: Shape): string {
  return shape.map((s) => (s.kind === "lit" ? JSON.stringify(s.text) : slotText(s))).join(" + ") || '""';
}

export function slotText(s: Slot): string {
  const inner = s.props.join(", ") || "…";
  if (s.fn === "pad" || s.fn === "hash") return `${s.fn}(${inner}${s.width !== undefined ? `, ${s.width}` : ""})`;
  return s.fn ? `${s.fn}(${inner})` : inner;
}
