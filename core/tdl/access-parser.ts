/**
 * Parsing of access patterns: `query`, the write operations and `transaction`.
 */
import { Cond, CondOp, Name, Query, Rate, Transaction, Value, Write, WriteOp } from "./ast";
import { Cursor } from "./cursor";
import { T } from "./lexer";
import { parseCount, RATE_UNITS } from "./numbers";

const COMPARISONS: Partial<Record<T, CondOp>> = { [T.Equals]: "=", [T.Lt]: "<", [T.Le]: "<=", [T.Gt]: ">", [T.Ge]: ">=" };

/** `N/unit` when a number follows the pattern's name. */
function parseRate(c: Cursor): Rate | undefined {
  if (!c.is(T.Number) || c.peek().kind !== T.Slash) return undefined;
  const num = c.next();
  c.next();
  const unit = c.tok;
  if (unit.kind !== T.Ident || !(unit.value in RATE_UNITS)) c.fail("a rate unit: s, min, h or day");
  c.next();
  const count = parseCount(num.value);
  if (count.error) c.error(num.start, num.end, count.error);
  return { perSecond: count.value / RATE_UNITS[unit.value], raw: `${num.value}/${unit.value}`, start: num.start, end: unit.end };
}

export function parseQuery(c: Cursor): Query {
  const kw = c.next();
  const name = c.expectName("a query name after 'query'");
  const q: Query = { kind: "query", keyword: { start: kw.start, end: kw.end }, name, start: kw.start, end: name.end };
  q.rate = parseRate(c);
  if (c.eatWord("where")) {
    q.where = [parseCond(c)];
    while (c.isWord("and") && !c.atMemberBoundary()) {
      c.next();
      q.where.push(parseCond(c));
    }
  } else if (c.eatWord("filter")) {
    q.filter = c.expectString("an OData filter string after 'filter', such as \"PartitionKey eq 'a'\"");
  } else {
    c.fail("'where' or 'filter' after the query's name and rate");
  }
  if (c.isWord("select") && !c.atMemberBoundary()) {
    c.next();
    q.select = [c.expectName("a property name after 'select'")];
    while (c.eat(T.Comma)) q.select.push(c.expectName("a property name after ','"));
  }
  if (c.isWord("returns") && !c.atMemberBoundary()) {
    c.next();
    q.returns = c.expectNumber("a count after 'returns'", parseCount);
  }
  q.end = c.lastEnd;
  return q;
}

function parseCond(c: Cursor): Cond {
  const property = c.expectName("a property name in the condition");
  let op: CondOp;
  const opKind = COMPARISONS[c.tok.kind];
  if (opKind) {
    op = opKind;
    c.next();
  } else if (c.isWord("between") || c.isWord("prefix")) {
    op = c.next().value as CondOp;
  } else {
    return c.fail("a comparison (=, <, <=, >, >=, between, prefix)");
  }
  const value = parseValue(c);
  return { property, op, value, start: property.start, end: value.end };
}

function parseValue(c: Cursor): Value {
  const t = c.tok;
  if (t.kind === T.Question) {
    c.next();
    return { kind: "param", text: "?", start: t.start, end: t.end };
  }
  if (t.kind === T.String) {
    c.next();
    c.stringLit(t);
    return { kind: "string", text: t.value, start: t.start, end: t.end };
  }
  if (t.kind === T.Number) {
    c.next();
    return { kind: "number", text: t.value, start: t.start, end: t.end };
  }
  return c.fail('a value: ?, a "string" or a number');
}

export function parseWrite(c: Cursor): Write {
  const kw = c.next();
  const name = c.expectName(`a name after '${kw.value}'`);
  const w: Write = {
    kind: "write",
    op: kw.value as WriteOp,
    keyword: { start: kw.start, end: kw.end },
    name,
    start: kw.start,
    end: name.end,
  };
  w.rate = parseRate(c);
  if (c.isWord("batch") && !c.atMemberBoundary()) {
    c.next();
    w.batch = c.expectNumber("a count after 'batch'", parseCount);
  }
  if (c.isWord("sets") && !c.atMemberBoundary()) {
    const kw = c.next();
    if (w.op === "insert" || w.op === "delete")
      c.error(kw.start, kw.end, `'sets' says what an update changes: '${w.op}' writes or removes whole entities`);
    w.sets = [c.expectName("a property name after 'sets'")];
    while (c.eat(T.Comma)) w.sets.push(c.expectName("a property name after ','"));
  }
  w.end = c.lastEnd;
  return w;
}

export function parseTransaction(c: Cursor): Transaction {
  const kw = c.next();
  const name = c.expectName("a transaction name after 'transaction'");
  const tx: Transaction = {
    kind: "transaction",
    keyword: { start: kw.start, end: kw.end },
    name,
    sharing: [],
    start: kw.start,
    end: name.end,
  };
  tx.rate = parseRate(c);
  if (!c.eatWord("entities")) c.fail("'entities' and a count, such as 'entities 2'");
  tx.entities = c.expectNumber("a count after 'entities'", parseCount);
  if (!c.eatWord("sharing")) c.fail("'sharing' and the properties the entities share");
  const first: Name = c.expectName("a property name after 'sharing'");
  tx.sharing.push(first);
  while (c.eat(T.Comma)) tx.sharing.push(c.expectName("a property name after ','"));
  tx.end = c.lastEnd;
  return tx;
}
