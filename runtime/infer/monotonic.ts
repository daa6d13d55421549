/**
 * Whether a property grows with time: the rank correlation (Spearman's ρ,
 * ties sharing their average rank) between the entities' Timestamps and
 * the property's values. Writes that overlap shuffle the order a little, so
 * a strong correlation, not a strict order, is the signal.
 */

/** Fewer pairs (or distinct Timestamps) than this say nothing about order. */
const MIN_PAIRS = 20;
const MIN_DISTINCT_TIMES = 10;

/** ρ of (time, value) pairs; undefined when there are too few pairs or times to tell. */
export function spearman(pairs: ReadonlyArray<readonly [number, number]>): number | undefined {
  if (pairs.length < MIN_PAIRS) return undefined;
  if (new Set(pairs.map((p) => p[0])).size < MIN_DISTINCT_TIMES) return undefined;
  const rx = ranks(pairs.map((p) => p[0]));
  const ry = ranks(pairs.map((p) => p[1]));
  return pearson(rx, ry);
}

/** Ranks from 1, ties getting the average of the ranks they span. */
export function ranks(values: readonly number[]): Float64Array {
  const order = values.map((_, i) => i).sort((a, b) => values[a] - values[b]);
  const out = new Float64Array(values.length);
  for (let i = 0; i < order.length;) {
    let j = i;
    while (j + 1 < order.length && values[order[j + 1]] === values[order[i]]) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) out[order[k]] = rank;
    i = j + 1;
  }
  return out;
}

function pearson(x: Float64Array, y: Float64Array): number | undefined {
  const n = x.length;
  let mx = 0,
    my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i];
    my += y[i];
  }
  mx /= n;
  my /= n;
  let sxy = 0,
    sxx = 0,
    syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = x[i] - mx,
      dy = y[i] - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return sxx && syy ? sxy / Math.sqrt(sxx * syy) : undefined;
}
