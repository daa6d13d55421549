/**
 * Every term the figures use is explained on hover, with a link to its
 * heading of docs/language.md (issue #32: "range partition is never
 * explained"): the registry (core/text/terms.ts) against the docs' headings,
 * and the hovers a newcomer sees on a scan, a fan-out, an append-only key
 * and a key an update changes.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { analyzeTdl } from "@core";
import { TERMS, TERMS_DOC } from "@core/text/terms";
import { hover } from "@server/ide";

const DOCS = path.resolve("docs");

/** GitHub's anchor of a heading: lowercase, punctuation dropped but for hyphens, spaces as hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, "")
    .replace(/ /g, "-");

/** The anchors of every heading of a docs file. */
function headings(file: string): Set<string> {
  const text = readFileSync(path.join(DOCS, file), "utf8").replace(/```[\s\S]*?```/g, "");
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1])));
}

const URI = "file:///ext/docs/language.md";

/** The `[docs](…#anchor)` links of a hover, each checked against the headings of the file it names. */
function links(markdown: string): string[] {
  const anchors = headings(TERMS_DOC);
  return [...markdown.matchAll(/\(\[docs\]\(([^)#]+)#([^)]+)\)\)/g)].map(([, uri, anchor]) => {
    assert.equal(uri, URI);
    assert.ok(anchors.has(anchor), `#${anchor} is a heading of docs/${TERMS_DOC}`);
    return anchor;
  });
}

function hoverOn(text: string, at: string, nth = 0): string {
  let offset = -1;
  for (let i = 0; i <= nth; i++) offset = text.indexOf(at, offset + 1);
  assert.ok(offset >= 0, `${at} is in the design`);
  // The caret in the middle of the marker.
  const h = hover(analyzeTdl(text), offset + Math.floor(at.length / 2), URI);
  assert.ok(h, `a hover on ${at}`);
  return h.markdown;
}

test("every term's anchor is a heading of docs/language.md, and every docs file's headings are unique", () => {
  const anchors = headings(TERMS_DOC);
  for (const t of TERMS) assert.ok(anchors.has(t.anchor), `docs/${TERMS_DOC} has a heading for '${t.term}' (#${t.anchor})`);
  assert.equal(new Set(TERMS.map((t) => t.anchor)).size, TERMS.length);
  for (const file of readdirSync(DOCS).filter((f) => f.endsWith(".md"))) assert.ok(headings(file).size > 0, file);
});

const ORDERS = `table Orders {
  CustomerId: string(12) charset "a-z0-9" distinct 20K
  OrderId:    guid unique
  PlacedAt:   datetime increasing
  Status:     enum(Open, Paid, Shipped)
  partitionKey = date(PlacedAt, "yyyyMMdd")
  rowKey       = OrderId
  rows 2M
  insert Place 300/s
  update Pay 50/s sets Status
  query ByCustomer 5/s where CustomerId = ?
  query Day 1/s where PlacedAt between ?
  query One 100/s where PlacedAt = ? and OrderId = ?
}
`;

test("a table scan's hover explains table-scan and selectivity, each with a link that resolves", () => {
  const md = hoverOn(ORDERS, "ByCustomer");
  assert.match(md, /- \*\*table-scan\*\* — a query that pins no PartitionKey: the service reads every partition/);
  assert.deepEqual(links(md), ["table-scan", "selectivity"]);
});

test("a point query and a range over partitions explain their class", () => {
  assert.deepEqual(links(hoverOn(ORDERS, "One")).slice(0, 1), ["point"]);
  assert.ok(links(hoverOn(ORDERS, "Day 1", 0)).includes("partition-range"));
});

test("an append-only partition key's finding explains range partitions where the finding is", () => {
  const md = hoverOn(ORDERS, "date(PlacedAt");
  assert.match(md, /\*\*range partition\*\* — Table Storage keeps a table's keys in order/);
  assert.ok(links(md).includes("range-partition"));
});

test("a key an update changes explains what a mutable key is", () => {
  const text = ORDERS.replace('partitionKey = date(PlacedAt, "yyyyMMdd")', "partitionKey = Status");
  const md = hoverOn(text, "Status", 1);
  assert.ok(links(md).includes("mutable-key"), md);
});

test("a hover without the docs' location explains the terms without a link", () => {
  const offset = ORDERS.indexOf("ByCustomer") + 1;
  const md = hover(analyzeTdl(ORDERS), offset)!.markdown;
  assert.match(md, /\*\*table-scan\*\* — /);
  assert.doesNotMatch(md, /\[docs\]/);
});
