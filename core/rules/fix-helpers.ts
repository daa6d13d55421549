/**
 * Building blocks of the quick fixes: the separator to add, a property
 * rendered for a key, key edits. Which property spreads a partition is
 * `fixes/choose.ts`.
 */
import { Expr } from "../tdl/ast";
import { charsetMin } from "../model/charset";
import { KeyPartInfo } from "../model/key-parts";
import { PropertyInfo, renderedDigits } from "../model/properties";
import { ServiceProfile } from "../services";
import { TextEdit } from "../findings";

/**
 * A separator that sorts below every character of its neighbours and is
 * allowed in keys: `,` where it does, else the highest allowed character
 * that does (`docs/rules.md`). Undefined when no character fits.
 */
export function chooseSeparator(
  neighbours: Array<Pick<KeyPartInfo, "charset" | "fixedWidth"> | undefined>,
  profile: ServiceProfile,
): string | undefined {
  const mins = neighbours.filter((p) => !!p && !!p.charset && !p.fixedWidth).map((p) => charsetMin(p!.charset!));
  return separatorBelow(mins.length ? Math.min(...mins) : Infinity, profile);
}

/** `,` when it sorts below `bound` (a character code), else the highest character allowed in keys that does. */
export function separatorBelow(bound: number, profile: ServiceProfile): string | undefined {
  if (0x2c < bound) return ",";
  for (let c = Math.min(bound, 0x7f) - 1; c > 0x20; c--) {
    if (!profile.forbiddenKeyChar?.(c) && c !== 0x22) return String.fromCharCode(c);
  }
  return undefined;
}

/** JSON-quoted TDL string literal. */
export function tdlString(s: string): string {
  return JSON.stringify(s);
}

/** Width that holds every value of an integer property. */
export function padWidth(info: PropertyInfo): number {
  return renderedDigits(Math.max(Math.abs(info.min ?? 0), info.max ?? 0));
}

/** A property as a key part: integers padded so they sort, the rest as they are. */
export function keyPartText(info: PropertyInfo): string {
  return info.type === "int" || info.type === "int64" ? `pad(${info.name}, ${padWidth(info)})` : info.name;
}

/** Appends ` + "sep" + part` to a key expression. */
export function appendToKey(expr: Expr, sep: string, partText: string): TextEdit {
  return { start: expr.end, end: expr.end, newText: ` + ${tdlString(sep)} + ${partText}` };
}

/** Inserts `prefix + "sep" + ` before a key expression. */
export function prefixKey(expr: Expr, prefixText: string, sep: string): TextEdit {
  return { start: expr.start, end: expr.start, newText: `${prefixText} + ${tdlString(sep)} + ` };
}

/** Whether a key part renders `name` as itself (a hash or bucket of it only spreads it, as a prefix does on purpose). */
export function rendersProperty(part: KeyPartInfo, name: string): boolean {
  return part.fn !== "hash" && part.fn !== "bucket" && part.props.includes(name);
}

/**
 * A key's parts that a new key appends after properties it already renders
 * (`rendered`), to keep every row apart: the key as written when none of
 * its parts renders one of them again, else its other parts joined anew
 * (an index ordered by `Seq` ends with the row key `lower(Seq)` only once),
 * and without the parts that depend on a property an update changes
 * (`changing`: a key that renders one would move the entity).
 * `text` is empty when every part is rendered already.
 */
export function identityTail(
  text: string,
  parts: readonly KeyPartInfo[],
  expr: { start: number; end: number },
  rendered: ReadonlySet<string>,
  profile: ServiceProfile,
  changing: ReadonlySet<string> = new Set(),
): { text: string; parts: KeyPartInfo[] } {
  // A part goes when the new key renders its property already, or when an update changes what it depends on.
  const again = (p: KeyPartInfo) =>
    (p.props.length > 0 && [...rendered].some((n) => rendersProperty(p, n))) || p.props.some((n) => changing.has(n));
  if (!parts.some(again)) return { text: text.slice(expr.start, expr.end), parts: [...parts] };
  const kept = parts.filter((p) => p.props.length > 0 && !again(p));
  let out = "";
  kept.forEach((p, i) => {
    if (i) out += ` + ${tdlString(chooseSeparator([kept[i - 1], p], profile) ?? "_")} + `;
    out += text.slice(p.part.start, p.part.end);
  });
  return { text: out, parts: kept };
}
