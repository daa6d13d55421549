/**
 * User text quoted in messages, kept short: a diagnostic names a 1 MB
 * identifier or string by its start, and a list of names by its first few,
 * so messages stay readable and their total size linear in the design.
 */

/** `text` cut to `max` UTF-16 units (not inside a surrogate pair), with `…` when cut. */
export function clip(text: string, max = 60): string {
  if (text.length <= max) return text;
  let end = max;
  const c = text.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return text.slice(0, end) + "…";
}

/** The first `max` names joined with ", ", then "and N more". */
export function listNames(names: readonly string[], max = 8): string {
  const shown = names
    .slice(0, max)
    .map((n) => clip(n))
    .join(", ");
  return names.length > max ? `${shown} and ${names.length - max} more` : shown;
}
