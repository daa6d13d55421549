/**
 * A seeded test project for the drift rules: correct code written,
 * programmatically, for every table of the example designs (its keys, its
 * index rows, its declared queries), then copies with one drift seeded per
 * function — another separator, pad width, segment order, a missing
 * prefix, a forbidden character, an undeclared query — `perKind` of each.
 * Each seed records where the drift is (the key expression or the query
 * call), so a test can say which were found and which findings are false.
 *
 * The project is written inside the repository (so `@azure/data-tables`
 * resolves) with the designs copied beside the code.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { analyzeTdl, Expr, Part, PropertyInfo, TableModel } from "@core";
import { designTable } from "@ts-analysis/drift/design-index";
import { TSCONFIG } from "./typescript";

export type SeedKind = "separator" | "pad-width" | "segment-order" | "missing-prefix" | "forbidden-character" | "undeclared-query";
export const SEED_KINDS: readonly SeedKind[] = [
  "separator",
  "pad-width",
  "segment-order",
  "missing-prefix",
  "forbidden-character",
  "undeclared-query",
];

export interface Seed {
  kind: SeedKind;
  table: string;
  file: string;
  /** The drifting key expression or query call, offsets in the file. */
  start: number;
  end: number;
  /** What was changed, for a failure message. */
  what: string;
}

export interface DriftCorpus {
  dir: string;
  designs: string[];
  /** The unchanged code: no drift finding may be reported on it. */
  correct: string[];
  seeds: Seed[];
  /** Files with seeded drifts: every drift finding in them must sit on a seed. */
  seeded: string[];
  dispose(): void;
}

/** A key as code: literal text and values with how they render. */
type Seg = { lit: string } | { prop: string; src: string; numeric: boolean; pad?: number };

interface KeySite {
  table: TableModel;
  which: "partitionKey" | "rowKey";
  label: string;
  segs: Seg[];
}

const DESIGN_DIRS = ["examples", "examples/student-cards"];
const camel = (s: string) => s[0].toLowerCase() + s.slice(1);

/** Writes the corpus; `perKind` seeds of each kind. */
export function driftCorpus(perKind = 50): DriftCorpus {
  const base = path.resolve("test/fixtures/ts");
  mkdirSync(base, { recursive: true });
  const dir = mkdtempSync(path.join(base, ".tmp-drift-"));
  writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(TSCONFIG));
  const tables: Array<{ tm: TableModel; design: string }> = [];
  const designs: string[] = [];
  const seen = new Set<string>();
  for (const d of DESIGN_DIRS) {
    for (const f of readdirSync(d)
      .filter((x) => x.endsWith(".tdl"))
      .sort()) {
      const copy = path.join(dir, f);
      copyFileSync(path.join(d, f), copy);
      designs.push(copy);
      for (const tm of analyzeTdl(readFileSync(copy, "utf8")).tables) {
        if (seen.has(tm.table.name.text) || !tm.table.partitionKey || !tm.table.rowKey) continue;
        seen.add(tm.table.name.text);
        tables.push({ tm, design: copy });
      }
    }
  }
  const sites: KeySite[] = tables.flatMap(({ tm }) => [
    { table: tm, which: "partitionKey" as const, label: "partitionKey", segs: segsOf(tm.table.partitionKey!.expr, tm.props) },
    { table: tm, which: "rowKey" as const, label: "rowKey", segs: segsOf(tm.table.rowKey!.expr, tm.props) },
    ...tm.table.indexes.map((ix) => ({
      table: tm,
      which: "rowKey" as const,
      label: `index ${ix.name.text}`,
      segs: segsOf(ix.expr, tm.props),
    })),
  ]);

  // The unchanged code: one file per table, every key written in each style, every declared query.
  const correct: string[] = [];
  for (const { tm, design } of tables) {
    const w = new Writer(tables.map((t) => t.tm));
    const mine = sites.filter((s) => s.table === tm);
    STYLES.forEach((style, n) => {
      for (const s of mine) w.write(`ok${n}_${s.label.replace(/\W/g, "_")}`, tm, sites, s, s.segs, style);
    });
    const classes = designTable(tm, analyzeTdl(readFileSync(design, "utf8")), design).queries.map((q) => q.classification.class);
    classes.forEach((c, n) => w.query(`query${n}`, tm, c, n));
    correct.push(w.save(path.join(dir, `${tm.table.name.text}.correct.ts`)));
  }

  const seeds: Seed[] = [];
  const seeded: string[] = [];
  for (const kind of SEED_KINDS) {
    const w = new Writer(tables.map((t) => t.tm));
    const file = path.join(dir, `seeded-${kind}.ts`);
    let made = 0;
    for (let round = 0; made < perKind && round < perKind * 4; round++) {
      if (kind === "undeclared-query") {
        const { tm, design } = tables[round % tables.length];
        const declared = designTable(tm, analyzeTdl(readFileSync(design, "utf8")), design).queries.map((q) => q.classification.class);
        const free = ["table-scan", "point", "partition-range", "row-range"].filter((c) => !declared.includes(c as never));
        const cls = free[Math.floor(round / tables.length) % free.length];
        const span = w.query(`seed${round}`, tm, cls, round);
        seeds.push({ kind, table: tm.table.name.text, file, ...span, what: `a ${cls} query` });
        made++;
        continue;
      }
      const applicable = sites.filter((s) => mutate(kind, s.segs, 0) !== undefined);
      if (!applicable.length) break;
      const site = applicable[round % applicable.length];
      const variant = Math.floor(round / applicable.length);
      const changed = mutate(kind, site.segs, variant);
      if (!changed) continue;
      const span = w.write(`seed${round}`, site.table, sites, site, changed.segs, STYLES[round % STYLES.length]);
      seeds.push({ kind, table: site.table.table.name.text, file, ...span, what: `${site.label}: ${changed.what}` });
      made++;
    }
    seeded.push(w.save(file));
  }
  return { dir, designs, correct, seeds, seeded, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

function segsOf(expr: Expr, props: ReadonlyMap<string, PropertyInfo>): Seg[] {
  return expr.parts.map((p) => segOf(p, props));
}

function segOf(p: Part, props: ReadonlyMap<string, PropertyInfo>): Seg {
  if (p.kind === "string") return { lit: p.value };
  const isInt = (name: string) => ["int", "int64"].includes(props.get(name)?.type ?? "");
  if (p.kind === "ref") return { prop: p.name.text, src: `e.${camel(p.name.text)}`, numeric: isInt(p.name.text) };
  const inner = p.args[0] as Expr;
  const name = inner.parts[0].kind === "ref" ? inner.parts[0].name.text : "";
  const v = `e.${camel(name)}`;
  const n = (p.args[1] as { value?: number } | undefined)?.value;
  switch (p.fnName) {
    case "pad":
      return { prop: name, src: `String(${v}).padStart(${n}, "0")`, numeric: false, pad: n };
    case "hash":
      return { prop: name, src: `createHash("md5").update(String(${v})).digest("hex").slice(0, ${n})`, numeric: false };
    case "bucket":
      return { prop: name, src: `String(crc(${v}) % ${n})`, numeric: false };
    case "reverse":
      return { prop: name, src: `String(8640000000000000 - ${v}.getTime())`, numeric: false };
    case "date":
      return { prop: name, src: `${v}.toISOString().slice(0, 13)`, numeric: false };
    default:
      return { prop: name, src: `String(${v}).toLowerCase()`, numeric: false };
  }
}

const SEPARATORS: Record<string, string[]> = { __: ["::", "-", "_"], _: ["-", "::", "."], ",": [";", "_", "|"], ":": ["_", "-", ";"] };
const FORBIDDEN = ["#", "/", "?", "\\"];

/** One drift of a kind in a key's segments (variant picks among the places and replacements), or undefined when the key has no place for it. */
function mutate(kind: SeedKind, segs: Seg[], variant: number): { segs: Seg[]; what: string } | undefined {
  const out = segs.map((s) => ({ ...s }));
  const isLit = (s: Seg | undefined): s is { lit: string } => !!s && "lit" in s;
  const inner = out.flatMap((s, i) => (isLit(s) && i > 0 && i < out.length - 1 ? [i] : []));
  switch (kind) {
    case "separator": {
      if (!inner.length) return undefined;
      const i = inner[variant % inner.length];
      const old = (out[i] as { lit: string }).lit;
      const options = SEPARATORS[old] ?? ["~"];
      const lit = options[Math.floor(variant / inner.length) % options.length];
      out[i] = { lit };
      return { segs: out, what: `separator ${JSON.stringify(old)} → ${JSON.stringify(lit)}` };
    }
    case "pad-width": {
      const pads = out.flatMap((s, i) => ("pad" in s && s.pad ? [i] : []));
      if (!pads.length) return undefined;
      const i = pads[variant % pads.length];
      const s = out[i] as { prop: string; pad: number };
      const drop = Math.floor(variant / pads.length) % 3 === 2;
      const w = s.pad + (Math.floor(variant / pads.length) % 3 === 0 ? 1 : -1);
      out[i] = drop
        ? { prop: s.prop, src: `e.${camel(s.prop)}`, numeric: true }
        : { prop: s.prop, src: `String(e.${camel(s.prop)}).padStart(${w}, "0")`, numeric: false, pad: w };
      return { segs: out, what: drop ? `${s.prop} unpadded` : `${s.prop} padded to ${w}, not ${s.pad}` };
    }
    case "segment-order": {
      const slots = out.flatMap((s, i) => (!isLit(s) ? [i] : []));
      const pairs = slots
        .slice(1)
        .flatMap((j, k) => ((out[slots[k]] as { prop: string }).prop !== (out[j] as { prop: string }).prop ? [[slots[k], j]] : []));
      if (!pairs.length) return undefined;
      const [a, b] = pairs[variant % pairs.length];
      [out[a], out[b]] = [out[b], out[a]];
      return { segs: out, what: `${(out[b] as { prop: string }).prop} and ${(out[a] as { prop: string }).prop} swapped` };
    }
    case "missing-prefix": {
      if (!isLit(out[0]) || out.length < 2) return undefined;
      const old = out.shift() as { lit: string };
      return { segs: out, what: `prefix ${JSON.stringify(old.lit)} left out` };
    }
    case "forbidden-character": {
      const ch = FORBIDDEN[variant % FORBIDDEN.length];
      const lits = out.flatMap((s, i) => (isLit(s) ? [i] : []));
      if (!lits.length) return { segs: [...out, { lit: ch }], what: `${JSON.stringify(ch)} appended` };
      const i = lits[Math.floor(variant / FORBIDDEN.length) % lits.length];
      const old = (out[i] as { lit: string }).lit;
      out[i] = { lit: old.slice(0, 1) + ch + old.slice(1) };
      return { segs: out, what: `${JSON.stringify(ch)} inserted into ${JSON.stringify(old)}` };
    }
    default:
      return undefined;
  }
}

/**
 * How the code spells a key and writes the entity: a template or `+`, the SDK method, values read from the
 * entity (`e.bib`) or from destructured locals (`bib`), numbers padded through `String(x)` or `x.toString()`.
 */
interface Style {
  render: "template" | "concat";
  method: "createEntity" | "upsertEntity" | "updateEntity" | "transaction" | "getEntity";
  locals?: boolean;
  toStringPad?: boolean;
}
const METHODS: Style[] = [
  { render: "template", method: "createEntity" },
  { render: "concat", method: "upsertEntity" },
  { render: "template", method: "transaction" },
  { render: "concat", method: "updateEntity" },
  { render: "template", method: "getEntity" },
  { render: "concat", method: "createEntity" },
];
const STYLES: Style[] = [false, true].flatMap((toStringPad) =>
  [false, true].flatMap((locals) => METHODS.map((m) => ({ ...m, locals, toStringPad }))),
);

/** A rendered key in a style's spelling of values. */
function spell(key: string, style: Style): string {
  let out = style.toStringPad ? key.replace(/String\((e\.\w+)\)\.padStart\(/g, "$1.toString().padStart(") : key;
  if (style.locals) out = out.replace(/\be\.(\w+)/g, "$1");
  return out;
}

function render(segs: Seg[], how: Style["render"]): string {
  if (how === "template") {
    return (
      "`" +
      segs.map((s) => ("lit" in s ? s.lit.replace(/[\\`]/g, (c) => `\\${c}`).replace(/\$\{/g, "\\${") : `\${${s.src}}`)).join("") +
      "`"
    );
  }
  const parts = segs.map((s) => ("lit" in s ? JSON.stringify(s.lit) : s.numeric ? `String(${s.src})` : s.src));
  return parts.length === 1 && !("lit" in segs[0]) ? `String(${parts[0]})` : parts.join(" + ");
}

const TS_TYPE: Record<string, (p: PropertyInfo) => string> = {
  string: () => "string",
  guid: () => "string",
  int: () => "number",
  int64: () => "number",
  double: () => "number",
  bool: () => "boolean",
  datetime: () => "Date",
  binary: () => "Uint8Array",
  enum: (p) => (p.enumValues ?? []).map((v) => JSON.stringify(v)).join(" | ") || "string",
};

/** Builds one file: a header with the clients and entity types, then functions, recording where each key or query is. */
class Writer {
  private text = `import { TableClient, TableTransaction, odata } from "@azure/data-tables";
import { createHash } from "node:crypto";
declare function crc(value: unknown): number;
const conn = process.env.TABLES_CONNECTION ?? "UseDevelopmentStorage=true";
`;

  constructor(tables: TableModel[]) {
    for (const tm of tables) {
      const name = tm.table.name.text;
      this.text += `const ${camel(name)}Client = TableClient.fromConnectionString(conn, ${JSON.stringify(name)});\n`;
      this.text += `interface ${name}Entity { ${[...tm.props.values()].map((p) => `${camel(p.name)}: ${TS_TYPE[p.type](p)}`).join("; ")} }\n`;
    }
  }

  /** A function writing one entity whose `site` key is `segs` (the other key as designed); returns the span of `segs`' expression. */
  write(fn: string, tm: TableModel, sites: KeySite[], site: KeySite, segs: Seg[], style: Style): { start: number; end: number } {
    const name = tm.table.name.text;
    const other = sites.find((s) => s.table === tm && s.which !== site.which)!;
    const key = spell(render(segs, style.render), style);
    const otherKey = spell(render(other.segs, style.render), style);
    const [pk, rk] = site.which === "partitionKey" ? [key, otherKey] : [otherKey, key];
    const client = `${camel(name)}Client`;
    let head = `export async function ${fn}(e: ${name}Entity) {\n  `;
    if (style.locals) head += `const { ${[...tm.props.keys()].map(camel).join(", ")} } = e;\n  `;
    let before: string;
    let after: string;
    if (style.method === "getEntity") {
      before = site.which === "partitionKey" ? `await ${client}.getEntity(` : `await ${client}.getEntity(${pk}, `;
      after = site.which === "partitionKey" ? `, ${rk});\n}\n` : `);\n}\n`;
    } else {
      const open =
        style.method === "transaction" ? `const tx = new TableTransaction();\n  tx.createEntity(` : `await ${client}.${style.method}(`;
      const close =
        style.method === "transaction"
          ? `);\n  await ${client}.submitTransaction(tx.actions);\n}\n`
          : style.method === "updateEntity"
            ? `, "Merge");\n}\n`
            : style.method === "upsertEntity"
              ? `, "Replace");\n}\n`
              : `);\n}\n`;
      before = site.which === "partitionKey" ? `${open}{ partitionKey: ` : `${open}{ partitionKey: ${pk}, rowKey: `;
      after = site.which === "partitionKey" ? `, rowKey: ${rk} }${close}` : ` }${close}`;
    }
    head += before;
    const start = this.text.length + head.length;
    this.text += head + key + after;
    return { start, end: start + key.length };
  }

  /** A function querying the table with a filter of class `cls`; returns the span of the call's method name. */
  query(fn: string, tm: TableModel, cls: string, variant: number): { start: number; end: number } {
    const name = tm.table.name.text;
    const client = `${camel(name)}Client`;
    const prop = [...tm.props.keys()][variant % tm.props.size];
    const filter =
      cls === "point"
        ? "PartitionKey eq ${a} and RowKey eq ${b}"
        : cls === "row-range"
          ? "PartitionKey eq ${a} and RowKey ge ${b} and RowKey lt ${c}"
          : cls === "partition-range"
            ? "PartitionKey ge ${a} and PartitionKey lt ${b}"
            : `${prop} eq \${a}`;
    // Inline, or bound to a const first and passed by shorthand.
    const bound = variant % 2 === 1;
    const call = bound ? "listEntities({ queryOptions: { filter } })" : `listEntities({ queryOptions: { filter: odata\`${filter}\` } })`;
    const head = `export function ${fn}(a: string, b: string, c: string) {\n  void c;\n  ${bound ? `const filter = odata\`${filter}\`;\n  ` : ""}return ${client}.`;
    const start = this.text.length + head.length;
    this.text += head + call + `;\n}\n`;
    return { start, end: start + call.indexOf("(") };
  }

  save(file: string): string {
    writeFileSync(file, this.text);
    return file;
  }
}
