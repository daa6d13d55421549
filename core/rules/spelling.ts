/** "Did you mean" suggestions by edit distance, with bounded work. */

/** Names longer than this get no suggestion: a typo in a 60-character name is not what a suggestion is for. */
const MAX_SUGGESTED_LENGTH = 64;

/**
 * Edit-distance steps (characters × characters compared) one `suggester`
 * spends at most: a table with thousands of misspelt names gets suggestions
 * for the first ones, in a few tens of milliseconds, not for all in seconds.
 */
const MAX_STEPS = 2_000_000;

export function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length];
}

/** The candidate nearest to `name` (case-insensitive match first), if close enough to be a typo. */
export function closest(name: string, candidates: string[]): string | undefined {
  return suggester(candidates)(name);
}

/**
 * `closest` for many names against one candidate list. Each distinct name
 * is looked up once (a misspelt name is usually misspelt everywhere);
 * candidates whose length alone rules them out are not compared; long
 * names get no suggestion; and the steps all lookups share are bounded.
 */
export function suggester(candidates: string[]): (name: string) => string | undefined {
  const lowered = candidates.map((c) => c.toLowerCase());
  const exact = new Map<string, string>();
  lowered.forEach((l, i) => {
    if (!exact.has(l)) exact.set(l, candidates[i]);
  });
  const memo = new Map<string, string | undefined>();
  let left = MAX_STEPS;
  const lookup = (name: string): string | undefined => {
    const lower = name.toLowerCase();
    const same = exact.get(lower);
    if (same !== undefined) return same;
    if (name.length > MAX_SUGGESTED_LENGTH) return undefined;
    const allowed = Math.max(name.length >= 3 ? 1 : 0, Math.floor(name.length / 3));
    let best: string | undefined;
    let bestD = Infinity;
    for (let i = 0; i < lowered.length; i++) {
      const c = lowered[i];
      // The distance is at least the difference in length.
      if (Math.abs(c.length - name.length) > Math.min(allowed, bestD - 1)) continue;
      left -= 32 + (name.length + 1) * (c.length + 1); // 32: what one comparison costs beyond its steps
      if (left < 0) return undefined;
      const d = editDistance(lower, c);
      if (d < bestD) {
        bestD = d;
        best = candidates[i];
      }
    }
    return best !== undefined && bestD <= allowed ? best : undefined;
  };
  return (name) => {
    if (!memo.has(name)) memo.set(name, lookup(name));
    return memo.get(name);
  };
}
