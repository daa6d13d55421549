/**
 * Property tests of the generated builders and parsers, on every key of
 * every example table and of two designs that use every key function, type
 * and profile: for 10,000 random entities per key, build(x) equals the
 * core's `renderKey(x)`, and parse(build(x)) gives back x's values of every
 * property the key does not digest (hash and bucket never give theirs back;
 * date() only with a format that holds every field). A builder may refuse
 * a value only for a reason the rendered key shows: a forbidden character,
 * a key over the profile's size, or a separator inside the part before it.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import {
  analyzeTdl,
  bucketOf,
  codePointLabel,
  DATE_TOKENS,
  Expr,
  formatDate,
  invertedTicks,
  MAX_DATE_MS,
  md5hex,
  MIN_DATE_MS,
  padDigits,
  renderKey,
  reverseInteger,
  ServiceProfile,
  SERVICES,
  utf8Bytes,
} from "@core";
import { generateKeyBuilders } from "@codegen";
import { Runtime } from "@codegen/runtime";
import { fuzz } from "../../helpers/fuzz";
import { generateExamples, GeneratedTable, removeDir, tempDir } from "./examples";
import { entityArb, invertibleProps, keyProps, literals, same, scalar, Value } from "./values";
import { EVERYTHING, MESSAGES } from "./designs";

const RUNS = 10_000;

interface Key {
  table: GeneratedTable;
  which: "PartitionKey" | "RowKey";
  fn: string;
  expr: Expr;
}

let dir = "";
let tables: GeneratedTable[] = [];
const modules = new Map<string, Record<string, unknown>>();

before(async () => {
  dir = tempDir();
  tables = generateExamples(dir).tables;
  for (const [name, text] of [
    ["everything", EVERYTHING],
    ["messages", MESSAGES],
  ]) {
    const analysis = analyzeTdl(text);
    assert.deepEqual(
      analysis.findings.filter((f) => f.severity === "error").map((f) => f.message),
      [],
      `${name} has errors`,
    );
    const result = generateKeyBuilders(analysis);
    assert.deepEqual(result.problems, []);
    for (const m of result.modules) {
      const file = path.join(dir, `${name}-${m.fileName}`);
      writeFileSync(file, m.text);
      const tm = analysis.tables.find((t) => t.table.name.text === m.table)!;
      tables.push({ design: name, table: m.table, file, text: m.text, analysis, tm });
    }
  }
  for (const t of tables) modules.set(t.file, (await import(pathToFileURL(t.file).href)) as Record<string, unknown>);
});
after(() => removeDir(dir));

function keysOf(t: GeneratedTable): Key[] {
  const table = t.tm.table;
  return [
    { table: t, which: "PartitionKey", fn: "partitionKey", expr: table.partitionKey!.expr },
    { table: t, which: "RowKey", fn: "rowKey", expr: table.rowKey!.expr },
    ...table.indexes.map((ix): Key => ({ table: t, which: "RowKey", fn: `rowKey${ix.name.text}`, expr: ix.expr })),
  ];
}

type Fn = (x: unknown) => unknown;

/** Whether the key the core renders shows why a builder refused it. */
function refusalShown(key: Key, x: Record<string, Value>, rendered: string, message: string): boolean {
  const profile = key.table.analysis.profile;
  const forbidden = profile.forbiddenKeyChar;
  if (/may not appear/.test(message)) return !!forbidden && [...rendered].some((c) => forbidden(c.charCodeAt(0)));
  if (/takes \d+ bytes/.test(message)) {
    const bytes = profile.keyEncoding === "utf16" ? rendered.length * 2 : Buffer.byteLength(rendered, "utf8");
    return bytes > (key.which === "PartitionKey" ? profile.partitionKeyMaxBytes : profile.rowKeyMaxBytes);
  }
  if (/holds the separator/.test(message)) {
    const seps = literals(key.expr);
    return [...keyProps(key.expr)].some((p) => seps.some((s) => String(scalar(x[p]!)).includes(s)));
  }
  return false;
}

function roundTrip(key: Key): { built: number; refused: number } {
  const mod = modules.get(key.table.file)!;
  const build = mod[key.fn] as Fn;
  const parseName = `parse${key.fn[0]!.toUpperCase()}${key.fn.slice(1)}`;
  const parse = mod[parseName] as Fn | undefined;
  const KeyError = mod.KeyError as new (m: string) => Error;
  assert.equal(typeof build, "function", `${key.table.table}: no ${key.fn}()`);
  assert.equal(typeof parse, "function", `${key.table.table}: no ${parseName}()`);
  const expected = [...invertibleProps(key.expr)].sort();
  const props = key.table.tm.props;
  let built = 0;
  let refused = 0;
  fuzz(
    `codegen-${key.table.design.replace(/\W+/g, "-")}-${key.table.table}-${key.fn}`,
    entityArb(props),
    (x) => {
      const values = new Map(Object.entries(x).map(([k, v]) => [k, scalar(v)]));
      const rendered = renderKey(key.expr, { props, values });
      let text: string;
      try {
        text = build(x) as string;
      } catch (e) {
        if (!(e instanceof KeyError)) throw e;
        assert.ok(refusalShown(key, x, rendered, e.message), `refused without cause: ${e.message}`);
        refused++;
        return;
      }
      built++;
      assert.equal(text, rendered);
      const back = parse!(text) as Record<string, unknown>;
      assert.deepEqual(Object.keys(back).sort(), expected);
      for (const p of expected) assert.ok(same(back[p], x[p]), `${p}: ${String(back[p])} read back, ${String(x[p])} built`);
    },
    RUNS,
  );
  return { built, refused };
}

test("every key of every example table and of the test designs round-trips and equals the core's renderKey", (t) => {
  const keys = tables.flatMap(keysOf);
  assert.ok(keys.length >= 28, `${keys.length} keys`);
  const lines: string[] = [];
  for (const key of keys) {
    const { built, refused } = roundTrip(key);
    // Most random entities make a key: the check above is not vacuous.
    assert.ok(built >= RUNS * 0.4, `${key.table.table}.${key.fn}: only ${built} of ${built + refused} built`);
    lines.push(`${key.table.table}.${key.fn}: ${built} built, ${refused} refused`);
  }
  for (const line of lines) t.diagnostic(line);
});

test("hash and bucket digests are the only parts that give nothing back", () => {
  const everything = tables.find((t) => t.table === "Everything")!;
  const pk = keysOf(everything)[0]!;
  assert.deepEqual([...invertibleProps(pk.expr)], ["Code"]);
  const mod = modules.get(everything.file)!;
  const back = (mod.parsePartitionKey as Fn)(
    (mod.partitionKey as Fn)({ Name: "x", Id: "0f8fad5b-d9cb-469f-a165-70867728950e", Code: "ABC" }),
  );
  assert.deepEqual(back, { Code: "ABC" });
});

type KeyFn = (...args: never[]) => unknown;
const KEY_FUNCTIONS = ["keyPad", "keyHash", "keyBucket", "keyReverseInteger", "keyReverseDate", "keyDateText", "keyChecked"];

/** The key functions a module carries for `profile`, with what they use, written alone and exported for the test. */
async function keyFunctions(profile: ServiceProfile): Promise<Record<string, KeyFn>> {
  const rt = new Runtime(profile);
  for (const name of KEY_FUNCTIONS) rt.use(name);
  const text = [...rt.imports(), ...rt.code(), `export { ${KEY_FUNCTIONS.join(", ")} };`].join("\n\n");
  const file = path.join(dir, `key-functions-${profile.name}.ts`);
  writeFileSync(file, text);
  return (await import(pathToFileURL(file).href)) as Record<string, KeyFn>;
}

/** Any UTF-16 text: code units of the whole range (lone surrogates, NUL, forbidden characters) or whole code points. */
const anyText = fc.oneof(
  fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 40 }).map((units) => String.fromCharCode(...units)),
  fc.string({ unit: "binary", maxLength: 20 }),
);
const anyDate = fc.date({ min: new Date(MIN_DATE_MS), max: new Date(MAX_DATE_MS), noInvalidDate: true });
/** Formats of tokens and copied characters: anything but an ASCII letter, which no fixed-width format holds. */
const anyFormat = fc
  .array(
    fc.oneof(
      fc.constantFrom(...DATE_TOKENS),
      fc
        .integer({ min: 0, max: 0xffff })
        .map((c) => String.fromCharCode(c))
        .filter((c) => !/[A-Za-z]/.test(c)),
    ),
    {
      maxLength: 10,
    },
  )
  .map((parts) => parts.join(""));
const RUNS_EACH = 2_000;

/** A thrown KeyError's message, or the value. */
function outcome(f: () => unknown): { value?: unknown; refused?: string } {
  try {
    return { value: f() };
  } catch (e) {
    if (e instanceof Error && e.name === "KeyError") return { refused: e.message };
    throw e;
  }
}

test("each key function a module carries equals the core's definition on random inputs", async () => {
  const k = await keyFunctions(SERVICES["azure-table"]);
  const call = (name: string, ...args: unknown[]) => (k[name] as (...a: unknown[]) => unknown)(...args);
  fuzz(
    "codegen-key-hash",
    fc.tuple(anyText, fc.integer({ min: 1, max: 32 })),
    ([text, n]) => {
      assert.equal(call("keyHash", text, n), md5hex(text).slice(0, n));
    },
    RUNS_EACH,
  );
  fuzz(
    "codegen-key-bucket",
    fc.tuple(anyText, fc.integer({ min: 1, max: 2 ** 32 })),
    ([text, n]) => {
      assert.equal(call("keyBucket", text, n), bucketOf(text, n));
    },
    RUNS_EACH,
  );
  fuzz(
    "codegen-key-reverse-date",
    anyDate,
    (d) => {
      assert.equal(call("keyReverseDate", d), invertedTicks(d.getTime()));
    },
    RUNS_EACH,
  );
  fuzz(
    "codegen-key-date",
    fc.tuple(anyDate, anyFormat),
    ([d, format]) => {
      assert.equal(call("keyDateText", d, format), formatDate(d, format));
    },
    RUNS_EACH,
  );
  // pad and reverse refuse exactly what would not fit the width; what they make is the core's text.
  fuzz(
    "codegen-key-pad",
    fc.tuple(fc.maxSafeInteger().map(String), fc.integer({ min: 1, max: 25 })),
    ([digits, width]) => {
      const core = padDigits(digits, width);
      const made = outcome(() => call("keyPad", digits, width, "pad(X)"));
      assert.deepEqual(made.value, core.length > width ? undefined : core);
    },
    RUNS_EACH,
  );
  fuzz(
    "codegen-key-reverse-integer",
    fc.tuple(fc.maxSafeInteger(), fc.maxSafeInteger(), fc.integer({ min: 1, max: 20 })),
    ([max, v, width]) => {
      const core = reverseInteger(max, v, width);
      const made = outcome(() => call("keyReverseInteger", v, max, width, "reverse(X)"));
      assert.deepEqual(made.value, core.length > width ? undefined : core);
    },
    RUNS_EACH,
  );
});

test("a whole key is refused for the character and the size the core finds, named as the core names them", async () => {
  for (const profile of [SERVICES["azure-table"], SERVICES["cosmos-table"]]) {
    const k = await keyFunctions(profile);
    const forbidden = profile.forbiddenKeyChar!;
    fuzz(
      `codegen-key-checked-${profile.name}`,
      fc.tuple(anyText, fc.integer({ min: 0, max: 120 })),
      ([key, maxBytes]) => {
        const made = outcome(() => (k.keyChecked as (...a: unknown[]) => unknown)("RowKey", key, maxBytes));
        // Forbidden characters are all in the basic plane, so the first one is found by code unit.
        const at = Array.from({ length: key.length }, (_, i) => key.charCodeAt(i)).findIndex(forbidden);
        const bytes = profile.keyEncoding === "utf16" ? key.length * 2 : utf8Bytes(key);
        const refused = made.refused ?? "";
        if (at >= 0) assert.ok(refused.includes(`: the character ${codePointLabel(key.charCodeAt(at))} at ${at} may not appear`), refused);
        else if (bytes > maxBytes) assert.ok(refused.endsWith(`takes ${bytes} bytes; ${profile.label} allows ${maxBytes}`), refused);
        else assert.equal(made.value, key);
      },
      RUNS_EACH,
    );
  }
});
