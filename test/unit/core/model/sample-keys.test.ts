/**
 * Example keys come from each property's domain (issue #32): a hover or a
 * finding shows a key a table could really hold — a GUID where the type is
 * guid, a member of an enum, an integer padded as the key pads it, a date in
 * the key's format, a string of the declared alphabet — never the
 * property's name ("on partition 'tenantid'").
 *
 * The property: on every generated design, the example of each key matches
 * the grammar its expression describes, part by part (a regular expression
 * built from the parts and the properties' declared types).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { analyzeTdl, isNumberLit, isStringLit, maxKeyChars, renderKey, sampleValues } from "@core";
import type { Expr, Part, PropertyInfo } from "@core";
import { fuzz } from "../../../helpers/fuzz";
import { designTextArb } from "../../../helpers/design-arbitraries";

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The characters a charset allows, as a regular-expression class. */
function classOf(info: PropertyInfo): string {
  if (!info.charset) return "[^\\u0000-\\u001f/\\\\#?]";
  return `[${info.charset.ranges.map(([lo, hi]) => `\\u{${lo.toString(16)}}-\\u{${hi.toString(16)}}`).join("")}]`;
}

/** What one property renders as, from its declared type alone. */
function valuePattern(info: PropertyInfo): string {
  switch (info.type) {
    case "guid":
      return "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
    case "enum":
      return `(?:${info.enumValues!.map(esc).join("|")})`;
    case "bool":
      return "(?:true|false)";
    case "datetime":
      return "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z";
    case "int":
    case "int64":
      return "-?\\d+";
    case "double":
      return "-?\\d+(?:\\.\\d+)?(?:e[-+]?\\d+)?";
    default:
      return `${classOf(info)}{0,${Number.isFinite(info.maxChars) ? info.maxChars : ""}}`;
  }
}

const DATE_TOKEN = /yyyy|MM|dd|HH|mm|ss|fff/g;

function partPattern(part: Part, props: ReadonlyMap<string, PropertyInfo>): string {
  if (part.kind === "string") return esc(part.value);
  if (part.kind === "ref") return valuePattern(props.get(part.name.text)!);
  const inner = part.args[0] && "parts" in part.args[0] ? (part.args[0] as Expr) : undefined;
  const n = isNumberLit(part.args[1]) ? part.args[1].value : undefined;
  const innerPattern = inner ? exprPattern(inner, props) : "";
  switch (part.fnName) {
    case "hash":
      return `[0-9a-f]{${n ?? 32}}`;
    case "bucket":
      return `\\d{${String(Math.max(0, n! - 1)).length}}`;
    case "pad":
      // Digits padded to the width the key declares (a value wider than the width keeps its digits).
      return `-?\\d{${n! - 0},}|-?\\d{${n! - 1}}`;
    case "reverse":
      return "\\d+";
    case "date": {
      const fmt = isStringLit(part.args[1]) ? part.args[1].value : "";
      return esc(fmt).replace(DATE_TOKEN, (t) => `\\d{${t.length}}`);
    }
    case "lower":
    case "upper": {
      // The inner text in one case: as long as the inner pattern allows, without letters of the other case.
      const width = inner ? maxKeyChars(inner, props) : 0;
      return `[^\\u0000-\\u001f${part.fnName === "lower" ? "A-Z" : "a-z"}]{0,${Number.isFinite(width) ? width : ""}}`;
    }
    default:
      return innerPattern;
  }
}

function exprPattern(expr: Expr, props: ReadonlyMap<string, PropertyInfo>): string {
  return expr.parts.map((p) => `(?:${partPattern(p, props)})`).join("");
}

/** Whether a sample value lies inside its property's declared domain. */
function inDomain(info: PropertyInfo, v: unknown): boolean {
  if (info.type === "int" || info.type === "int64") return typeof v === "number" && v >= info.min! && v <= info.max!;
  if (info.type === "enum") return info.enumValues!.includes(v as string);
  if (info.type === "string") return typeof v === "string" && v.length <= info.maxChars && new RegExp(`^${classOf(info)}*$`, "u").test(v);
  return true;
}

test("every example key of a generated design matches its key expression's grammar and its properties' declared types", () => {
  fuzz(
    "sample-keys",
    designTextArb,
    (text) => {
      const a = analyzeTdl(text);
      for (const tm of a.tables) {
        const values = sampleValues(tm.props);
        for (const info of tm.props.values())
          assert.ok(
            inDomain(info, values.get(info.name)),
            `${info.name}'s sample ${String(values.get(info.name))} is outside its domain in\n${text}`,
          );
        const keys = [tm.table.partitionKey, tm.table.rowKey, ...tm.table.indexes].filter((k) => !!k);
        for (const key of keys) {
          const example = renderKey(key.expr, { props: tm.props, values });
          const grammar = new RegExp(`^${exprPattern(key.expr, tm.props)}$`, "u");
          assert.match(example, grammar, `the example ${example} of ${text.slice(tm.base + key.expr.start, tm.base + key.expr.end)}`);
          for (const info of tm.props.values())
            if (info.type === "string" && values.get(info.name) !== "")
              assert.ok(!example.toLowerCase().includes(info.name.toLowerCase()), `the example ${example} shows the name ${info.name}`);
        }
      }
    },
    100,
  );
});

test("a hover's example partition is a value of each property's domain, not the property's name", () => {
  const tm = analyzeTdl(`table Orders {
  TenantId: string(36) charset "a-z0-9-"
  OrderId:  guid
  Status:   enum(Open, Paid)
  Seq:      int(0..99999)
  At:       datetime
  partitionKey = TenantId + "_" + Status
  rowKey       = date(At, "yyyyMMdd") + "_" + pad(Seq, 5) + "_" + OrderId
}
`).tables[0];
  const values = sampleValues(tm.props);
  const pk = renderKey(tm.table.partitionKey!.expr, { props: tm.props, values });
  const rk = renderKey(tm.table.rowKey!.expr, { props: tm.props, values });
  assert.match(pk, /^[a-z0-9-]{8}_Open$/);
  assert.doesNotMatch(pk, /tenant/i);
  assert.match(rk, /^20260102_00042_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
});
