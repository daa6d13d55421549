/**
 * Compares the shape of a key the code builds with the shapes the design
 * declares, and says how they differ: a forbidden character, a part the
 * design lacks or that the code leaves out, another segment order, pad
 * width, prefix or separator. Lenient where the code cannot be seen: a slot
 * whose value has no name, or a name the design does not use, is matched
 * by position; a value already rendered to text is taken as rendered right.
 */
import type ts from "typescript";
import { ServiceProfile } from "@core";
import { layout, Lit, merge, render, Shape, Slot, slotText } from "./shape";
import { agree } from "@core/text/words";

export type DriftKind = "forbidden-character" | "extra-part" | "missing-part" | "segment-order" | "pad-width" | "prefix" | "separator";

export interface Drift {
  kind: DriftKind;
  message: string;
  /** Where in the code (a literal or a slot); the whole key when none. */
  node?: ts.Node;
}

const lower = (s: string) => s.toLowerCase();

/** The drifts of `code` against `design`; none when the code builds the key as designed. */
export function compareShapes(code: Shape, design: Shape, profile: ServiceProfile): Drift[] {
  const c = layout(settleFixed(code, design));
  const d = layout(design);
  const out: Drift[] = [];
  forbidden(c.lits, d.lits, profile, out);
  // A constant key (no slot) is another rule's business unless the design's key is constant too.
  if (!c.slots.length && d.slots.length) return out;
  const mapping = mapSlots(c.slots, d.slots);
  for (const i of mapping.extra) {
    out.push({
      kind: "extra-part",
      node: c.slots[i].node,
      message: `'${c.slots[i].node?.getText() ?? slotText(c.slots[i])}' is a part the design's key does not have`,
    });
  }
  const missing = d.slots.filter((_, j) => !mapping.to.includes(j));
  if (missing.length)
    out.push({ kind: "missing-part", message: `the design's key has ${missing.map(slotText).join(", ")}, which this key leaves out` });
  const matched = mapping.to.filter((j) => j >= 0);
  let highest = -1;
  let outOfOrder: Slot | undefined;
  mapping.to.forEach((j, i) => {
    if (j < 0) return;
    if (j < highest) outOfOrder ??= c.slots[i];
    highest = Math.max(highest, j);
  });
  if (outOfOrder) {
    out.push({
      kind: "segment-order",
      node: outOfOrder.node,
      message: `its parts come in the order ${matched.map((j) => slotText(d.slots[j])).join(", ")}; the design orders them ${d.slots.map(slotText).join(", ")}`,
    });
  }
  mapping.to.forEach((j, i) => {
    if (j >= 0) width(c.slots[i], d.slots[j], out);
  });
  // Literals are comparable only where the parts line up one to one.
  if (!out.some((x) => x.kind === "extra-part" || x.kind === "missing-part" || x.kind === "segment-order")) literals(c.lits, d.lits, out);
  return out;
}

/**
 * Values whose declared type allows one text: a slot when their name is a
 * property of the design's key (`distance: "Full"` renders Distance), else
 * literal text (`prefix: "BIB:"`).
 */
function settleFixed(code: Shape, design: Shape): Shape {
  if (!code.some((s) => s.kind === "slot" && s.fixedText !== undefined)) return code;
  const names = new Set(design.flatMap((s) => (s.kind === "slot" ? s.props.map(lower) : [])));
  return merge(
    code.map((s) =>
      s.kind === "slot" && s.fixedText !== undefined && !s.props.some((p) => names.has(lower(p)))
        ? { kind: "lit", text: s.fixedText, nodes: s.node ? [s.node] : [] }
        : s,
    ),
  );
}

/** Characters the profile forbids in a key, in the code's literals and not in the design's. */
function forbidden(code: Lit[], design: Lit[], profile: ServiceProfile, out: Drift[]): void {
  const bad = profile.forbiddenKeyChar;
  if (!bad) return;
  const designed = new Set(design.flatMap((l) => [...l.text]));
  for (const l of code) {
    const chars = [...new Set([...l.text].filter((ch) => bad(ch.charCodeAt(0)) && !designed.has(ch)))];
    if (chars.length) {
      out.push({
        kind: "forbidden-character",
        node: l.nodes[0],
        message: `${chars.map((ch) => JSON.stringify(ch)).join(", ")} cannot appear in a key (${profile.label} forbids ${agree(chars.length, "it", "them")}), and the design has none there`,
      });
    }
  }
}

/**
 * Which design slot each code slot renders (−1: none): by name where the
 * value's name is a property of the key, then by position among the rest
 * when both sides have as many left; code slots left over are extra parts.
 */
function mapSlots(code: Slot[], design: Slot[]): { to: number[]; extra: number[] } {
  const to = code.map(() => -1);
  const used = new Set<number>();
  // By name, first where the rendering agrees too (`hash(N, 4) + "_" + pad(N, 10)` names N twice), then by name alone.
  for (const sameRendering of [true, false]) {
    code.forEach((s, i) => {
      if (to[i] >= 0) return;
      const names = s.props.map(lower);
      const j = design.findIndex(
        (d, k) => !used.has(k) && (!sameRendering || d.fn === s.fn) && d.props.some((p) => names.includes(lower(p))),
      );
      if (j >= 0) {
        to[i] = j;
        used.add(j);
      }
    });
  }
  const freeCode = to.flatMap((j, i) => (j < 0 ? [i] : []));
  const freeDesign = design.flatMap((_, k) => (used.has(k) ? [] : [k]));
  // More code slots than the design has left: values with a name the design never uses are the extra ones first.
  const surplus = Math.max(0, freeCode.length - freeDesign.length);
  const extra = [...freeCode.filter((i) => code[i].props.length), ...freeCode.filter((i) => !code[i].props.length)].slice(0, surplus);
  // The rest (unnamed, or named differently) take the remaining design slots in order.
  freeCode
    .filter((i) => !extra.includes(i))
    .forEach((i, n) => {
      to[i] = freeDesign[n];
    });
  return { to, extra };
}

/** Pad widths and hash digits: the code's against the design's, where both are known. */
function width(c: Slot, d: Slot, out: Drift[]): void {
  const what = c.node?.getText() ?? slotText(c);
  if (d.fn === "pad" && d.width !== undefined) {
    if (c.fn === "pad" && c.width !== undefined && c.width !== d.width)
      out.push({
        kind: "pad-width",
        node: c.node,
        message: `'${what}' pads to ${c.width} digits; the design pads ${d.props.join(", ")} to ${d.width}`,
      });
    else if (!c.fn && c.numeric)
      out.push({
        kind: "pad-width",
        node: c.node,
        message: `'${what}' is a number without padding; the design pads ${d.props.join(", ")} to ${d.width} digits`,
      });
  } else if (!d.fn && d.numeric && c.fn === "pad") {
    out.push({
      kind: "pad-width",
      node: c.node,
      message: `'${what}' pads to ${c.width ?? "some"} digits; the design does not pad ${d.props.join(", ")}`,
    });
  } else if (d.fn === "hash" && c.fn === "hash" && c.width !== undefined && d.width !== undefined && c.width !== d.width) {
    out.push({
      kind: "pad-width",
      node: c.node,
      message: `'${what}' keeps ${c.width} hex digits of the hash; the design keeps ${d.width}`,
    });
  }
}

function literals(c: Lit[], d: Lit[], out: Drift[]): void {
  const n = c.length;
  for (let i = 0; i < n; i++) {
    if (c[i].text === d[i].text) continue;
    const node = c[i].nodes[0];
    if (i === 0) {
      out.push({
        kind: "prefix",
        node,
        message: c[i].text
          ? `it starts with ${JSON.stringify(c[i].text)}; the design's key starts with ${d[i].text ? JSON.stringify(d[i].text) : "no literal prefix"}`
          : `the design's key starts with ${JSON.stringify(d[i].text)}, which this key leaves out`,
      });
    } else {
      const where = i === n - 1 ? "after the last part" : "between its parts";
      out.push({
        kind: "separator",
        node,
        message: `it has ${c[i].text ? JSON.stringify(c[i].text) : "no separator"} ${where} where the design has ${d[i].text ? JSON.stringify(d[i].text) : "none"}`,
      });
    }
  }
}

/** The best-matching design shape (fewest drifts, the first on a tie) and its drifts. */
export function bestMatch<T extends { shape: Shape }>(
  code: Shape,
  candidates: readonly T[],
  profile: ServiceProfile,
): { candidate: T; drifts: Drift[] } | undefined {
  let best: { candidate: T; drifts: Drift[] } | undefined;
  for (const candidate of candidates) {
    const drifts = compareShapes(code, candidate.shape, profile);
    if (!best || drifts.length < best.drifts.length) best = { candidate, drifts };
    if (!drifts.length) break;
  }
  return best;
}

export { render };
