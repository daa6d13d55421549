/**
 * The Python key builders (`tdl codegen --lang python`) against the core,
 * as roundtrip.test.ts checks the TypeScript ones: for every key of every
 * example table and of the two test designs, 10,000 random entities (the
 * fixed fast-check seed) go to one python3 process per design in one batch;
 * each key Python builds equals the core's `renderKey`, Python refuses
 * exactly the entities the TypeScript builder refuses, and its parser gives
 * back every property the key does not digest.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { analyzeTdl, Expr, renderKey, TdlAnalysis, TableModel } from "@core";
import { generateKeyBuilders } from "@codegen";
import { FUZZ_SEED, fuzzRuns } from "../../helpers/fuzz";
import { EVERYTHING, MESSAGES } from "./designs";
import { exampleDesigns, removeDir, ROOT, tempDir } from "./examples";
import { entityArb, invertibleProps, same, scalar, Value } from "./values";

const RUNS = fuzzRuns(10_000);

interface Design {
  name: string;
  analysis: TdlAnalysis;
  /** Per table: its Python module's name and its TypeScript module. */
  tables: Array<{ tm: TableModel; py: string; ts: Record<string, unknown> }>;
}

let dir = "";
const designs: Design[] = [];

before(async () => {
  dir = tempDir();
  const sources = [
    ...exampleDesigns().map((f) => ({ name: f, text: readFileSync(path.join(ROOT, f), "utf8") })),
    { name: "everything", text: EVERYTHING },
    { name: "messages", text: MESSAGES },
  ];
  for (const [i, s] of sources.entries()) {
    const analysis = analyzeTdl(s.text);
    const py = generateKeyBuilders(analysis, { lang: "python", source: s.name });
    const ts = generateKeyBuilders(analysis, { source: s.name });
    assert.deepEqual(
      py.modules.map((m) => m.table),
      ts.modules.map((m) => m.table),
      `${s.name}: the same tables get modules`,
    );
    const design: Design = { name: s.name, analysis, tables: [] };
    for (const [j, m] of py.modules.entries()) {
      // Two designs may name the same table: a prefix keeps the modules apart.
      const module = `d${i}_${m.fileName.replace(/\.py$/, "")}`;
      writeFileSync(path.join(dir, `${module}.py`), m.text);
      const tsFile = path.join(dir, `d${i}-${ts.modules[j]!.fileName}`);
      writeFileSync(tsFile, ts.modules[j]!.text);
      const tm = analysis.tables.find((t) => t.table.name.text === m.table)!;
      design.tables.push({ tm, py: module, ts: (await import(pathToFileURL(tsFile).href)) as Record<string, unknown> });
    }
    designs.push(design);
  }
  writeFileSync(path.join(dir, "driver.py"), DRIVER);
});
after(() => removeDir(dir));

/** Reads the batch on stdin, builds and parses each entity, answers one result per entity. */
const DRIVER = String.raw`import datetime, importlib, json, sys

def decode(v):
    if isinstance(v, dict):
        if "$d" in v:
            return datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc) + datetime.timedelta(milliseconds=v["$d"])
        if "$i" in v:
            return int(v["$i"])
        if "$b" in v:
            return bytes.fromhex(v["$b"])
    return v

def encode(v):
    if isinstance(v, datetime.datetime):
        return {"$d": (v - datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)) // datetime.timedelta(milliseconds=1)}
    if isinstance(v, bool) or isinstance(v, float) or isinstance(v, str):
        return v
    if isinstance(v, int):
        return {"$i": str(v)}
    if isinstance(v, bytes):
        return {"$b": v.hex()}
    return {"$unknown": repr(v)}

batch = json.load(sys.stdin)
out = []
for case in batch:
    m = importlib.import_module(case["module"])
    build, parse = getattr(m, case["fn"]), getattr(m, "parse_" + case["fn"], None)
    results = []
    for entity in case["entities"]:
        e = {k: decode(v) for k, v in entity.items()}
        try:
            key = build(e)
        except m.TableKeyError as err:
            results.append(["refused", str(err)])
            continue
        try:
            back = {k: encode(v) for k, v in parse(key).items()} if parse else None
        except m.TableKeyError as err:
            back = {"$error": str(err)}
        results.append(["key", key, back])
    out.append(results)
# One write: json.dump() would write the answer in thousands of pieces.
sys.stdout.write(json.dumps(out))
`;

/** A value as the driver reads it. */
function wire(v: Value): unknown {
  if (v instanceof Date) return { $d: v.getTime() };
  if (typeof v === "bigint") return { $i: v.toString() };
  if (v instanceof Uint8Array) return { $b: Buffer.from(v).toString("hex") };
  return v;
}

/** A value the driver sent back, in the TypeScript module's types (int64 as bigint). */
function unwire(v: unknown, type: string): unknown {
  if (v && typeof v === "object") {
    const o = v as Record<string, string | number>;
    if ("$d" in o) return new Date(Number(o.$d));
    if ("$i" in o) return type === "int64" ? BigInt(o.$i) : Number(o.$i);
    if ("$b" in o) return new Uint8Array(Buffer.from(String(o.$b), "hex"));
  }
  return v;
}

interface Key {
  table: Design["tables"][number];
  fn: string;
  py: string;
  expr: Expr;
}

function keysOf(t: Design["tables"][number]): Key[] {
  const table = t.tm.table;
  return [
    { table: t, fn: "partitionKey", py: "partition_key", expr: table.partitionKey!.expr },
    { table: t, fn: "rowKey", py: "row_key", expr: table.rowKey!.expr },
    ...table.indexes.map((ix) => ({ table: t, fn: `rowKey${ix.name.text}`, py: `row_key_${ix.name.text}`, expr: ix.expr })),
  ];
}

test("every key Python builds equals the core's renderKey, refuses what TypeScript refuses, and parses back", (t) => {
  let keys = 0;
  for (const [d, design] of designs.entries()) {
    const cases = design.tables.flatMap(keysOf).map((key, k) => ({
      key,
      entities: fc.sample(entityArb(key.table.tm.props), { seed: FUZZ_SEED + 1000 * d + k, numRuns: RUNS }),
    }));
    const input = JSON.stringify(
      cases.map((c) => ({
        module: c.key.table.py,
        fn: c.key.py,
        entities: c.entities.map((e) => Object.fromEntries(Object.entries(e).map(([k, v]) => [k, wire(v)]))),
      })),
    );
    const run = spawnSync("python3", [path.join(dir, "driver.py")], { cwd: dir, input, encoding: "utf8", maxBuffer: 1 << 30 });
    assert.equal(run.status, 0, `${design.name}: python3 failed: ${run.stderr}`);
    const answers = JSON.parse(run.stdout) as Array<Array<["refused", string] | ["key", string, Record<string, unknown> | null]>>;
    for (const [i, c] of cases.entries()) {
      const { key } = c;
      const props = key.table.tm.props;
      const build = key.table.ts[key.fn] as (x: unknown) => string;
      const expected = [...invertibleProps(key.expr)].sort();
      const label = `${design.name} ${key.table.tm.table.name.text}.${key.py}`;
      let built = 0;
      for (const [j, x] of c.entities.entries()) {
        const answer = answers[i]![j]!;
        let tsKey: string | undefined;
        try {
          tsKey = build(x);
        } catch (e) {
          if ((e as Error).name !== "KeyError") throw e;
        }
        const input = () => JSON.stringify(x, (_k, v: unknown) => (typeof v === "bigint" ? `${v}n` : v));
        if (answer[0] === "refused") {
          assert.equal(tsKey, undefined, `${label}: Python refused what TypeScript built (${answer[1]}) for ${input()}`);
          continue;
        }
        assert.notEqual(tsKey, undefined, `${label}: Python built ${JSON.stringify(answer[1])}, TypeScript refused, for ${input()}`);
        built++;
        const values = new Map(Object.entries(x).map(([k, v]) => [k, scalar(v)]));
        assert.equal(answer[1], renderKey(key.expr, { props, values }), `${label} for ${input()}`);
        const back = answer[2]!;
        assert.ok(!("$error" in back), `${label}: the parser refused ${JSON.stringify(answer[1])}: ${String(back.$error)}`);
        assert.deepEqual(Object.keys(back).sort(), expected, label);
        for (const p of expected) {
          const v = unwire(back[p], props.get(p)!.type);
          assert.ok(same(v, x[p]), `${label}: ${p} read back as ${String(v)}, built from ${String(x[p])}`);
        }
      }
      assert.ok(built >= RUNS * 0.4, `${label}: only ${built} of ${RUNS} built`);
      t.diagnostic(`${label}: ${built} built, ${RUNS - built} refused`);
      keys++;
    }
  }
  assert.ok(keys >= 28, `${keys} keys`);
});

test("a Python module refuses a naive datetime and names the value it refuses", () => {
  const everything = designs.find((d) => d.name === "everything")!;
  const program = String.raw`import datetime, json
from ${everything.tables[0]!.py} import row_key, TableKeyError
e = {"At": datetime.datetime(2024, 1, 2), "Level": 1, "Kind": "Beta", "Name": "x"}
try:
    row_key(e)
except TableKeyError as err:
    print(err)
e["At"] = e["At"].replace(tzinfo=datetime.timezone.utc)
e["Level"] = 51
try:
    row_key(e)
except TableKeyError as err:
    print(err)
`;
  const run = spawnSync("python3", ["-c", program], { cwd: dir, encoding: "utf8" });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(
    run.stdout,
    "At = datetime.datetime(2024, 1, 2, 0, 0) is not a timezone-aware datetime\nLevel = 51 is not an integer in -50..50\n",
  );
});

test("names Python reserves and literals with quotes, braces and backslashes still make a module that builds its keys", () => {
  // Tablestore forbids no key character, so the backslash and the # stay in the keys.
  const design = String.raw`service tablestore

table class {
  None:   string(1..10) charset "a-z"
  def:    int(0..999)
  out:    enum(e, k, s)
  read:   string(2) charset "a-z"

  partitionKey = "\"\"\"{out}\\" + None
  rowKey       = pad(def, 3) + "'''" + out + "#" + read
  index import rowKey = read + "\u00e9" + None
}
`;
  const analysis = analyzeTdl(design);
  const r = generateKeyBuilders(analysis, { lang: "python" });
  assert.deepEqual(r.problems, []);
  writeFileSync(path.join(dir, "hostile_keys.py"), r.modules[0]!.text);
  const program = String.raw`import hostile_keys as m
e = {"None": "abc", "def": 7, "out": "k", "read": "zz"}
keys = [m.partition_key(e), m.row_key(e), m.row_key_import(e)]
print(keys)
print(m.parse_partition_key(keys[0]), m.parse_row_key(keys[1]), m.parse_row_key_import(keys[2]))
print(m.TABLE_NAME, sorted(m.KEYS))
`;
  const run = spawnSync("python3", ["-c", program], { cwd: dir, encoding: "utf8" });
  assert.equal(run.status, 0, run.stderr);
  const tm = analysis.tables[0]!;
  const values = new Map<string, string | number>([
    ["None", "abc"],
    ["def", 7],
    ["out", "k"],
    ["read", "zz"],
  ]);
  const expected = [tm.table.partitionKey!.expr, tm.table.rowKey!.expr, tm.table.indexes[0]!.expr].map((x) =>
    renderKey(x, { props: tm.props, values }),
  );
  assert.deepEqual(expected, [`"""{out}\\abc`, "007'''k#zz", "zz\u00e9abc"]);
  assert.equal(
    run.stdout,
    `['"""{out}\\\\abc', "007'''k#zz", 'zzéabc']\n` +
      `{'None': 'abc'} {'def': 7, 'out': 'k', 'read': 'zz'} {'read': 'zz', 'None': 'abc'}\n` +
      `class ['PartitionKey', 'RowKey', 'RowKey of index import']\n`,
  );
});

test("the Python module carries the same design fingerprint as the TypeScript one", () => {
  const analysis = analyzeTdl(MESSAGES);
  const ts = generateKeyBuilders(analysis).modules[0]!.text;
  const py = generateKeyBuilders(analysis, { lang: "python" }).modules[0]!.text;
  const fingerprint = /export const designFingerprint = "([0-9a-f]{64})";/.exec(ts)?.[1];
  assert.ok(fingerprint, "the TypeScript module carries one");
  assert.match(py, new RegExp(`^DESIGN_FINGERPRINT = "${fingerprint}"$`, "m"));
});
