/**
 * The first check on anything a page sends: is it small and shallow enough
 * to look at? Counts the characters of every string and key (and the bytes
 * of binary data), and stops as soon as a bound is passed — so a request
 * of 100 MB or nested 100,000 deep costs no more than the bound to refuse.
 * Iterative: a deep value cannot overflow the stack.
 */

export type Measure = "ok" | "too large" | "too deep";

export function measure(value: unknown, maxChars: number, maxDepth: number): Measure {
  let chars = 0;
  const stack: Array<{ v: unknown; depth: number }> = [{ v: value, depth: 0 }];
  while (stack.length) {
    const { v, depth } = stack.pop()!;
    // Every element and key already counted 1 when it was pushed; strings add their length.
    if (typeof v === "string") chars += v.length;
    else if (typeof v !== "object" || v === null) continue;
    else if (v instanceof ArrayBuffer || ArrayBuffer.isView(v)) chars += v.byteLength;
    else {
      if (depth >= maxDepth) return "too deep";
      if (Array.isArray(v)) {
        chars += v.length + 1;
        if (chars > maxChars) return "too large";
        for (let i = 0; i < v.length; i++) stack.push({ v: v[i], depth: depth + 1 });
      } else {
        // for…in stops early on a huge object, where Object.keys would list it all first.
        for (const k in v) {
          if (!Object.hasOwn(v, k)) continue;
          chars += k.length + 1;
          if (chars > maxChars) return "too large";
          stack.push({ v: (v as Record<string, unknown>)[k], depth: depth + 1 });
        }
      }
    }
    if (chars > maxChars) return "too large";
  }
  return "ok";
}
