/**
 * Finds the template a set of keys follows. A few proposer rows each yield
 * their cheapest explanations (a k-best search over key positions: literal
 * characters cost most, properties little, unexplained `free` segments a
 * fixed price); every proposal is then matched against many rows, and the
 * one that explains most keys wins, the cheaper on a tie. Free segments are
 * considered only when no fully explained template covers a fair share:
 * they would otherwise swallow the literals that tell row shapes apart.
 */
import {
  Atom,
  atomCost,
  exactSteps,
  FREE_CHAR_COST,
  freeEnds,
  matchTemplate,
  renderAtom,
  RowView,
  signature,
  templateCost,
} from "./key-atoms";
import type { TypedValue } from "@protocol/entities";

/** Best partial explanations kept per key position. */
const K = 12;
/** Proposer rows per search. */
const PROPOSERS = 6;
/** Rows every proposal is scored on before the best few are checked on all. */
const VALIDATION_ROWS = 256;
/** A fully explained template is preferred while it covers at least this share of the rows. */
const EXPLAINED_SHARE = 0.2;

export interface TemplateMatch {
  template: Atom[];
  /** Indices (into the rows given) of the keys that follow it. */
  matched: number[];
  /** For each matched row, its free segments' texts. */
  frees: string[][];
}

/**
 * Parts a proposed template may have. Designs have a handful; without a cap
 * a long key that a one-character property matches everywhere ("kkk…" with
 * K = "k") grows partials of a thousand parts, and the search took minutes.
 */
const MAX_ATOMS = 24;

interface Partial {
  cost: number;
  atoms: Atom[];
  /** `signature(atoms)`, kept so that comparing partials does not re-serialise them. */
  sig: string;
  /** The signature of every atom but the last (the last literal may still grow). */
  head: string;
}

function extend(p: Partial, atom: Atom, chars: number): Partial | undefined {
  const last = p.atoms[p.atoms.length - 1];
  const cost = p.cost + atomCost(atom) + (atom.kind === "free" ? chars * FREE_CHAR_COST : 0);
  if (atom.kind === "lit" && last?.kind === "lit") {
    const merged: Atom = { kind: "lit", text: last.text + atom.text };
    return { cost, atoms: [...p.atoms.slice(0, -1), merged], head: p.head, sig: join(p.head, merged) };
  }
  if (p.atoms.length >= MAX_ATOMS) return undefined;
  return { cost, atoms: [...p.atoms, atom], head: p.sig, sig: join(p.sig, atom) };
}

/** A signature with one more atom (as `signature` writes it). */
function join(head: string, atom: Atom): string {
  return head ? `${head}|${JSON.stringify(atom)}` : JSON.stringify(atom);
}

function keep(list: Partial[], p: Partial | undefined): void {
  if (!p) return;
  const sig = p.sig;
  const same = list.findIndex((q) => q.sig === sig);
  if (same >= 0) {
    if (list[same].cost <= p.cost) return;
    list.splice(same, 1);
  }
  let i = list.length;
  while (i > 0 && list[i - 1].cost > p.cost) i--;
  if (i >= K) return;
  list.splice(i, 0, p);
  if (list.length > K) list.pop();
}

/** The cheapest explanations of one key by one row's values. */
export function propose(key: string, view: RowView): Atom[][] {
  // Partials with a free segment compete among themselves: chance matches of
  // one row's values (a date's "00", a zero that equals another property)
  // are cheaper and would otherwise push every free explanation out.
  const best: Partial[][] = Array.from({ length: key.length + 1 }, () => []);
  const withFree: Partial[][] = Array.from({ length: key.length + 1 }, () => []);
  const put = (to: number, p: Partial, atom: Atom, chars: number) => {
    const list = atom.kind === "free" || p.atoms.some((a) => a.kind === "free") ? withFree[to] : best[to];
    // A full list that this step cannot enter: skip building it (many equal values make thousands of steps per position).
    const worst = list.length >= K ? list[K - 1].cost : Infinity;
    if (p.cost + atomCost(atom) + (atom.kind === "free" ? chars * FREE_CHAR_COST : 0) >= worst) return;
    keep(list, extend(p, atom, chars));
  };
  best[0].push({ cost: 0, atoms: [], sig: "", head: "" });
  for (let i = 0; i < key.length; i++) {
    if (!best[i].length && !withFree[i].length) continue;
    const exact = exactSteps(key, i, view);
    const frees = freeEnds(key, i);
    for (const p of [...best[i], ...withFree[i]]) {
      put(i + 1, p, { kind: "lit", text: key[i] }, 1);
      for (const s of exact) put(s.to, p, s.atom, s.to - i);
      if (p.atoms[p.atoms.length - 1]?.kind !== "free") for (const to of frees) put(to, p, { kind: "free" }, to - i);
    }
  }
  return [...best[key.length], ...withFree[key.length]].map((p) => p.atoms);
}

const NO_PROPS: ReadonlyMap<string, TypedValue> = new Map<string, TypedValue>();

/** Rows spread over the set: first, last and evenly between. */
function spread(n: number, count: number): number[] {
  if (n <= count) return Array.from({ length: n }, (_, i) => i);
  return Array.from({ length: count }, (_, i) => Math.round((i * (n - 1)) / (count - 1)));
}

/** The share of its literal's price a property that renders one text in every row saves. */
const CONSTANT_EASE = 0.01;

/**
 * Share of `rows` that follow the template, and its cost with the free
 * segments' average length. A property's part that renders the same text in
 * every row it matched explains nothing a literal would not (whole minutes
 * render seconds as "00" in every row, as do the zeros of a padded counter):
 * it costs what that literal costs, so that chance matches do not win.
 */
function score(t: Atom[], keys: readonly string[], views: readonly RowView[], rows: readonly number[]): { cover: number; cost: number } {
  let hit = 0;
  let freeChars = 0;
  const first: Array<string | undefined> = [];
  const varies = t.map((a) => a.kind === "lit" || a.kind === "free");
  for (const r of rows) {
    const f = matchTemplate(t, keys[r], views[r]);
    if (!f) continue;
    hit++;
    for (const s of f) freeChars += s.length;
    t.forEach((a, i) => {
      if (varies[i]) return;
      const text = renderAtom(a, views[r]);
      if (hit === 1) first[i] = text;
      else if (text !== first[i]) varies[i] = true;
    });
  }
  let constant = 0;
  // A hair under the literal's price: between a property that renders the same text in every sampled row and
  // that text as a literal, the property is the reading (a date's month in "yyyy-MM", not "yyyy" + "-03").
  if (hit > 1) t.forEach((a, i) => (constant += varies[i] ? 0 : Math.max(0, (first[i]?.length ?? 0) * (1 - CONSTANT_EASE) - atomCost(a))));
  return { cover: hit / rows.length, cost: templateCost(t) + constant + repeats(t) + (hit ? (freeChars / hit) * FREE_CHAR_COST : 0) };
}

/**
 * A price for a property rendered twice (a hash or bucket prefix aside): when
 * two properties hold the same values, the key that names each once is the
 * simpler reading.
 */
function repeats(t: readonly Atom[]): number {
  const seen = new Set<string>();
  let n = 0;
  for (const a of t) {
    if (a.kind === "lit" || a.kind === "free" || a.kind === "hash" || a.kind === "bucket") continue;
    if (seen.has(a.prop)) n++;
    seen.add(a.prop);
  }
  return n * 0.25;
}

/**
 * The template most of `keys` follow (each key with the row it came from),
 * with the rows it explains; undefined when there are no keys.
 */
export function inferTemplate(
  keys: readonly string[],
  views: readonly RowView[],
  explains?: (found: TemplateMatch) => number | undefined,
): TemplateMatch | undefined {
  if (!keys.length) return undefined;
  const proposals = new Map<string, Atom[]>();
  for (const r of spread(keys.length, PROPOSERS)) {
    for (const t of propose(keys[r], views[r])) proposals.set(signature(t), t);
    // The key read without the row's values too: one row's chance matches (a date's "00") can crowd its plain runs out of the k best.
    for (const t of propose(keys[r], new RowView({ pk: "", rk: "", props: NO_PROPS }))) proposals.set(signature(t), t);
    // And by its punctuation: free segments cost too much for the k best to keep three of them between separators.
    for (const t of skeletons(keys[r], views[r])) proposals.set(signature(t), t);
  }
  const validation = spread(keys.length, VALIDATION_ROWS);
  const scored = [...proposals.values()].map((t) => ({ t, ...score(t, keys, views, validation), free: t.some((a) => a.kind === "free") }));
  // A template of literals alone explains a key only when every key is that literal: "c1" is not the shape of c0…c4.
  const explained = scored.filter((s) => !s.free && s.cover >= EXPLAINED_SHARE && (s.cover === 1 || s.t.some((a) => a.kind !== "lit")));
  const pool = explained.length ? explained : scored;
  pool.sort((a, b) => b.cover - a.cover || a.cost - b.cost);
  if (!explained.length && explains) {
    const solved = solvedLeader(pool, keys, views, explains);
    if (solved) return solved;
  }
  // The validation sample can tie or mislead by a little: the leaders are checked on every row,
  // each also with a property read in upper or lower case (proposer rows whose values have one case cannot tell).
  const leaders = pool
    .slice(0, 4)
    .filter((s) => s.cover > 0)
    .flatMap((s) => [s, ...caseVariants(s.t).map((t) => ({ t, cost: s.cost + 0.1 }))]);
  let winner: TemplateMatch | undefined;
  let winnerCost = Infinity;
  for (const { t, cost } of leaders) {
    const matched: number[] = [];
    const frees: string[][] = [];
    for (let r = 0; r < keys.length; r++) {
      const f = matchTemplate(t, keys[r], views[r]);
      if (f) {
        matched.push(r);
        frees.push(f);
      }
    }
    if (!winner || matched.length > winner.matched.length || (matched.length === winner.matched.length && cost < winnerCost)) {
      winner = { template: t, matched, frees };
      winnerCost = cost;
    }
  }
  return winner;
}

/** Templates with free segments tried on every row by `explains`, at most this many. */
const SOLVED_TRIES = 40;

/**
 * The template whose free segments the columns then explain (a hash, a
 * bucket, a reverse…), among those with some structure that cover a fair
 * share: the most rows, the cheaper on a tie. One free segment over the
 * whole key covers every row but explains nothing, and would swallow the
 * literals that tell row shapes apart ("T3_9f2c" beside "ALT_T07").
 */
function solvedLeader(
  pool: ReadonlyArray<{ t: Atom[]; cover: number; cost: number; free: boolean }>,
  keys: readonly string[],
  views: readonly RowView[],
  explains: (found: TemplateMatch) => number | undefined,
): TemplateMatch | undefined {
  // Their price before solving says little (each free segment costs the same): the most structure first.
  const fair = pool.filter((s) => s.free && s.cover >= EXPLAINED_SHARE);
  const tries = [
    ...fair
      .filter((s) => s.t.length > 1)
      .sort((a, b) => b.cover - a.cover || b.t.length - a.t.length || a.cost - b.cost)
      .slice(0, SOLVED_TRIES),
    // The whole key as one column too: a countdown or a hash may be all of it.
    ...fair.filter((s) => s.t.length === 1),
  ];
  let best: { found: TemplateMatch; cost: number } | undefined;
  for (const { t } of tries) {
    const found = matchAll(t, keys, views);
    if (!found.matched.length || (best && found.matched.length < best.found.matched.length)) continue;
    const cost = explains(found);
    if (cost === undefined) continue;
    if (!best || found.matched.length > best.found.matched.length || cost < best.cost) best = { found, cost };
  }
  return best?.found;
}

const isWordChar = (c: string) => /[A-Za-z0-9]/.test(c);

/**
 * A key read by its punctuation: each run of letters and digits either
 * free or, when one of the row's properties explains all of it, that
 * reading; the separators literal. Every mix for up to four runs, else the
 * two ends (all free, all read).
 */
function skeletons(key: string, view: RowView): Atom[][] {
  const runs: Array<{ text: string; word: boolean }> = [];
  for (const c of key) {
    const last = runs[runs.length - 1];
    if (last && last.word === isWordChar(c)) last.text += c;
    else runs.push({ text: c, word: isWordChar(c) });
  }
  const words = runs.filter((r) => r.word);
  if (!words.length || runs.length > MAX_ATOMS) return [];
  const readings = words.map((w) => {
    const best = propose(w.text, view)[0];
    return best && !best.some((a) => a.kind === "free") ? best : undefined;
  });
  const masks = words.length <= 4 ? Array.from({ length: 2 ** words.length }, (_, m) => m) : [0, 2 ** words.length - 1];
  const out: Atom[][] = [];
  for (const mask of masks) {
    // A run this mask reads that no property explains: the mask is not a template.
    if (words.some((_, w) => mask & (1 << w) && !readings[w])) continue;
    let w = 0;
    const t: Atom[] = [];
    for (const r of runs) {
      if (!r.word) t.push({ kind: "lit", text: r.text });
      else if (mask & (1 << w++)) t.push(...readings[w - 1]!);
      else t.push({ kind: "free" });
    }
    out.push(merged(t));
  }
  return out;
}

/** A template with adjacent literals joined. */
function merged(t: readonly Atom[]): Atom[] {
  const out: Atom[] = [];
  for (const a of t) {
    const last = out[out.length - 1];
    if (a.kind === "lit" && last?.kind === "lit") out[out.length - 1] = { kind: "lit", text: last.text + a.text };
    else out.push(a);
  }
  return out;
}

/** The rows (of all) that follow `t`, with their free segments. */
function matchAll(t: Atom[], keys: readonly string[], views: readonly RowView[]): TemplateMatch {
  const matched: number[] = [];
  const frees: string[][] = [];
  for (let r = 0; r < keys.length; r++) {
    const f = matchTemplate(t, keys[r], views[r]);
    if (f) {
      matched.push(r);
      frees.push(f);
    }
  }
  return { template: t, matched, frees };
}

/** The template with one property's plain rendering read as `upper` or `lower` instead, each way. */
function caseVariants(t: readonly Atom[]): Atom[][] {
  const out: Atom[][] = [];
  t.forEach((a, i) => {
    if (a.kind !== "ref") return;
    for (const kind of ["upper", "lower"] as const) out.push([...t.slice(0, i), { kind, prop: a.prop }, ...t.slice(i + 1)]);
  });
  return out;
}
