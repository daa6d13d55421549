/**
 * Worst-case stored size of a key: UTF-16 (2 bytes a character) on Azure
 * Table Storage, UTF-8 on Cosmos DB for Table and Tablestore (1 byte for an
 * ASCII alphabet, 3 as the worst case without one) — `docs/service-facts.md`.
 */
import { Expr, isExpr, Part } from "../tdl/ast";
import { maxKeyChars, maxPartChars } from "./keys";
import { isAsciiProperty, PropertyInfo } from "./properties";
import { ServiceProfile } from "../services";

export function keyBytes(expr: Expr, props: ReadonlyMap<string, PropertyInfo>, profile: ServiceProfile): number {
  if (profile.keyEncoding === "utf16") return 2 * maxKeyChars(expr, props);
  return expr.parts.reduce((sum, p) => sum + partUtf8Bytes(p, props), 0);
}

function partUtf8Bytes(part: Part, props: ReadonlyMap<string, PropertyInfo>): number {
  if (part.kind === "string") return utf8Bytes(part.value);
  if (part.kind === "ref") {
    const info = props.get(part.name.text);
    if (!info) return Infinity;
    return isAsciiProperty(info) ? info.maxChars : 3 * info.maxChars;
  }
  if ((part.fnName === "lower" || part.fnName === "upper") && isExpr(part.args[0])) {
    return part.args[0].parts.reduce((sum, p) => sum + partUtf8Bytes(p, props), 0);
  }
  // pad, hash, bucket, reverse and date render ASCII digits and hex.
  return maxPartChars(part, props);
}

/** UTF-8 length of a string, counted without an encoder (a lone surrogate counts as U+FFFD, 3 bytes). */
export function utf8Bytes(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}
