/**
 * fast-check arbitraries of realistic designs (issue #32): a table of 2–8
 * properties of every type with the facts people declare, keys built from
 * the whole key grammar (composites with separators, pad, date, hash,
 * bucket, reverse, lower/upper, constants), sometimes an index row, sizes,
 * and access patterns from idle to the account's target — queries of every
 * class, writes, transactions. The design is returned as its text with the
 * parts it was made of, so that a failing property shrinks to the smallest
 * design that breaks it and prints it as a user would write it.
 */
import fc from "fast-check";

export type PropType = "string" | "int" | "int64" | "double" | "bool" | "datetime" | "guid" | "enum";

export interface GenProperty {
  name: string;
  type: PropType;
  /** The type as written: `string(40)`, `int(0..99999)`, `enum(A, B, C)`. */
  typeText: string;
  modifiers: string[];
}

export interface GenDesign {
  service: "azure-table" | "cosmos-table";
  table: string;
  properties: GenProperty[];
  partitionKey: string;
  rowKey: string;
  index?: string;
  estimates: string[];
  accesses: string[];
}

/** Names a person would give, one per domain. */
const NAMES = [
  "TenantId",
  "CustomerId",
  "DeviceId",
  "OrderId",
  "PlacedAt",
  "Status",
  "Amount",
  "Region",
  "Seq",
  "Active",
  "UserId",
  "Kind",
];

const SEPARATORS = ["_", "-", ":", "|", "#", ",", "__"];

function typeText(type: PropType, n: number): string {
  switch (type) {
    case "string":
      return `string(${[12, 36, 60][n % 3]})`;
    case "int":
      return [`int(0..${[99, 9_999, 99_999, 999_999][n % 4]})`, "int"][n % 5 === 4 ? 1 : 0];
    case "int64":
      return "int64";
    case "enum":
      return ["enum(Open, Paid, Shipped)", "enum(A, B)", "enum(Low, Mid, High, Urgent)"][n % 3];
    default:
      return type;
  }
}

function modifiersOf(type: PropType, n: number): fc.Arbitrary<string[]> {
  const pool: string[] = [];
  if (type === "string")
    pool.push(`charset "${["a-z0-9", "0-9A-F", "a-zA-Z0-9-"][n % 3]}"`, `distinct ${["200", "20K", "1M"][n % 3]}`, "hot 30%");
  if (type === "int" || type === "int64") pool.push("increasing", `distinct ${["50", "10K"][n % 2]}`, "unique");
  if (type === "datetime") pool.push("increasing");
  if (type === "guid") pool.push("unique");
  if (type === "enum" || type === "bool") pool.push("hot 60%");
  return fc.subarray(pool, { maxLength: Math.min(2, pool.length) }).map((mods) => {
    // One fact about order or count at a time, as a person states them.
    const unique = mods.includes("unique");
    return mods.filter((m) => !(unique && m.startsWith("distinct")));
  });
}

const property = (name: string): fc.Arbitrary<GenProperty> =>
  fc
    .record({ type: fc.constantFrom<PropType>("string", "int", "int64", "double", "bool", "datetime", "guid", "enum"), n: fc.nat(11) })
    .chain(({ type, n }) => modifiersOf(type, n).map((modifiers) => ({ name, type, typeText: typeText(type, n), modifiers })));

/** Few values: nobody hashes or buckets them (a hash of a bool is two literals). */
const lowCardinality = (p: GenProperty) =>
  p.type === "bool" || p.type === "enum" || p.modifiers.some((m) => /^distinct \d+$/.test(m) && Number(m.slice(9)) < 1000);

/** One part of a key over `p`, as the grammar allows for its type. */
function partOf(p: GenProperty): fc.Arbitrary<string> {
  const plain = fc.constant(p.name);
  const hashed = lowCardinality(p) ? plain : fc.constantFrom(`hash(${p.name}, 4)`, `bucket(${p.name}, 16)`, `bucket(${p.name}, 8)`);
  switch (p.type) {
    case "int":
      return fc.oneof(
        plain,
        fc.constantFrom(`pad(${p.name}, 10)`, `pad(${p.name}, 6)`),
        p.typeText.includes("..") ? fc.constant(`reverse(${p.name})`) : plain,
        hashed,
      );
    case "int64":
      return fc.oneof(plain, fc.constant(`pad(${p.name}, 19)`), hashed);
    case "datetime":
      return fc.oneof(
        plain,
        fc.constantFrom(`date(${p.name}, "yyyyMMdd")`, `date(${p.name}, "yyyyMMddHH")`, `date(${p.name}, "yyyy-MM")`),
        hashed,
      );
    case "string":
      return fc.oneof(plain, fc.constantFrom(`lower(${p.name})`, `upper(${p.name})`), hashed);
    default:
      return fc.oneof(plain, hashed);
  }
}

/** A key: 1–3 parts joined by one separator, sometimes behind a constant prefix. */
function keyOf(props: GenProperty[]): fc.Arbitrary<string> {
  return fc
    .record({
      parts: fc.shuffledSubarray(props, { minLength: 1, maxLength: Math.min(3, props.length) }).chain((ps) => fc.tuple(...ps.map(partOf))),
      sep: fc.constantFrom(...SEPARATORS),
      prefix: fc.option(fc.constantFrom('"T"', '"ORD"', '"v1"'), { freq: 4 }),
    })
    .map(({ parts, sep, prefix }) =>
      [prefix, ...parts.flatMap((x, i) => (i ? [JSON.stringify(sep), x] : [x]))].filter(Boolean).join(" + "),
    );
}

const RATES = ["", " 5/s", " 200/s", " 2K/s", " 20K/s"];

/** A query over the properties: point, range, prefix or one that pins nothing. */
function queryOf(props: GenProperty[], i: number): fc.Arbitrary<string> {
  const cond = (p: GenProperty): fc.Arbitrary<string> => {
    const ops = ["="];
    if (p.type === "int" || p.type === "int64" || p.type === "datetime" || p.type === "double") ops.push("between", ">=");
    if (p.type === "string") ops.push("prefix");
    return fc.constantFrom(...ops).map((op) => `${p.name} ${op} ?`);
  };
  return fc
    .record({
      pinned: fc.shuffledSubarray(props, { minLength: 1, maxLength: Math.min(3, props.length) }).chain((ps) => fc.tuple(...ps.map(cond))),
      rate: fc.constantFrom(...RATES),
      returns: fc.option(fc.constantFrom(" returns 1", " returns 50", " returns 1K"), { freq: 3 }),
    })
    .map(({ pinned, rate, returns }) => `query Q${i}${rate} where ${pinned.join(" and ")}${returns ?? ""}`);
}

/** A write; an update, merge or upsert sometimes says which properties it changes (`sets`). */
function writeOf(props: GenProperty[], i: number): fc.Arbitrary<string> {
  return fc
    .record({
      op: fc.constantFrom("insert", "upsert", "update", "merge", "delete"),
      rate: fc.constantFrom(...RATES),
      batch: fc.option(fc.constantFrom(" batch 10", " batch 100"), { freq: 4 }),
      sets: fc.option(
        fc.subarray(
          props.map((p) => p.name),
          { minLength: 1, maxLength: Math.min(2, props.length) },
        ),
        { freq: 2 },
      ),
    })
    .map(
      ({ op, rate, batch, sets }) =>
        `${op} W${i}${rate}${op === "insert" || op === "upsert" ? (batch ?? "") : ""}` +
        (sets && op !== "insert" && op !== "delete" ? ` sets ${sets.join(", ")}` : ""),
    );
}

/** A design of one table, with the service it runs on. */
export const designArb: fc.Arbitrary<GenDesign> = fc
  .record({
    names: fc.shuffledSubarray(NAMES, { minLength: 2, maxLength: 8 }),
    service: fc.constantFrom<GenDesign["service"]>("azure-table", "cosmos-table"),
  })
  .chain(({ names, service }) =>
    fc.tuple(...names.map(property)).chain((properties) =>
      fc.record({
        service: fc.constant(service),
        table: fc.constantFrom("Orders", "Readings", "Events"),
        properties: fc.constant(properties),
        partitionKey: fc.oneof({ weight: 1, arbitrary: fc.constantFrom('"all"', '"orders"') }, { weight: 6, arbitrary: keyOf(properties) }),
        rowKey: keyOf(properties),
        index: fc.option(
          keyOf(properties).map((k) => `index ByAlt rowKey = "ALT" + "_" + ${k}`),
          { freq: 4 },
        ),
        estimates: fc.subarray(["rows 2M", "entitySize 1KB", "retention 90d"]),
        accesses: fc
          .tuple(fc.array(fc.nat(), { minLength: 0, maxLength: 3 }), fc.array(fc.nat(), { minLength: 1, maxLength: 2 }))
          .chain(([qs, ws]) =>
            fc.tuple(fc.tuple(...qs.map((_, i) => queryOf(properties, i + 1))), fc.tuple(...ws.map((_, i) => writeOf(properties, i + 1)))),
          )
          .map(([qs, ws]) => [...qs, ...ws]),
      }),
    ),
  )
  .map((d) => ({ ...d, index: d.index ?? undefined }));

/** The design as a person writes it. */
export function designText(d: GenDesign): string {
  const width = Math.max(...d.properties.map((p) => p.name.length)) + 1;
  const lines = [
    `service ${d.service}`,
    "",
    `table ${d.table} {`,
    ...d.properties.map((p) => `  ${`${p.name}:`.padEnd(width + 1)} ${[p.typeText, ...p.modifiers].join(" ")}`),
    "",
    `  partitionKey = ${d.partitionKey}`,
    `  rowKey       = ${d.rowKey}`,
    ...(d.index ? [`  ${d.index}`] : []),
    "",
    ...d.estimates.map((e) => `  ${e}`),
    "",
    ...d.accesses.map((a) => `  ${a}`),
    "}",
    "",
  ];
  return lines.join("\n");
}

/** Designs as text (the form the properties take). */
export const designTextArb: fc.Arbitrary<string> = designArb.map(designText);
