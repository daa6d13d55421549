/**
 * Reading rows back: `readEntity` turns a row `listEntities` returned into
 * the typed entity, and `rowFamily` tells an entity's main row from its
 * index rows by rebuilding each RowKey of the row's values — what a query
 * over a partition whose row families share no key prefix needs, since
 * every row of an entity carries all of its properties.
 */
import { PropertyPlan, declared } from "./properties";
import { WriteTable } from "./writes";
import { commentText, objectKey, Source, str } from "./source";

/** The expression reading a property of `row` in its interface type. */
function readProp(p: PropertyPlan, t: WriteTable): string {
  const rt = t.rt;
  const v = `${rt.use("rowField")}(row, ${str(p.name)})`;
  const n = str(p.name);
  switch (p.info.type) {
    case "string":
    case "guid":
      return `${rt.use("rowString")}(${v}, ${n})`;
    case "enum":
      return `${rt.use("keyEnum")}(${rt.use("rowString")}(${v}, ${n}) as ${t.entity}[${n}], ${n}, ${declared(p, `values${p.name}`, rt)})`;
    case "int":
    case "double":
      return `${rt.use("rowNumber")}(${v}, ${n})`;
    case "int64":
      return `${rt.use("rowBigInt")}(${v}, ${n})`;
    case "bool":
      return `${rt.use("rowBoolean")}(${v}, ${n})`;
    case "datetime":
      return `${rt.use("rowDate")}(${v}, ${n})`;
    case "binary":
      return `${rt.use("rowBytes")}(${v}, ${n})`;
  }
}

/** `readEntity` and `rowFamily`. */
export function emitReads(src: Source, t: WriteTable): void {
  src.doc([
    `The ${commentText(t.name)} entity a row holds, as \`listEntities\` returns it (a Guid's \`{ value }\` unwrapped).`,
    "Throws KeyError when a property is missing or of another type.",
  ]);
  src.add(`export function readEntity(row: Readonly<Record<string, unknown>>): ${t.entity} {`);
  src.add(`return {${t.props.map((p) => ` ${objectKey(p.name)}: ${readProp(p, t)}`).join(",")}${t.props.length ? " " : ""}};`, 1);
  src.add("}");
  src.blank();
  const families = [t.rk, ...t.indexes];
  const names = families.map((k, i) => (i === 0 ? "rowKey" : k.label.replace(/^RowKey of index /, "")));
  const type = names.map(str).join(" | ");
  src.doc([
    `Which row of its entity a row is: "rowKey" for the main row, else the index's name; undefined for a row of no family.`,
    "Found by rebuilding each RowKey of the row's values, so it holds for any design.",
  ]);
  src.add(`export function rowFamily(row: Readonly<Record<string, unknown>>): ${type} | undefined {`);
  src.add("let e: " + t.entity + ";", 1);
  src.add("try {", 1).add("e = readEntity(row);", 2).add("} catch (err) {", 1);
  src
    .add(`if (err instanceof ${t.rt.use("KeyError")}) return undefined;`, 2)
    .add("throw err;", 2)
    .add("}", 1);
  src.add(`const key = row["rowKey"];`, 1);
  src.add("const builds = (build: (x: " + t.entity + ") => string): boolean => {", 1);
  src
    .add("try {", 2)
    .add("return build(e) === key;", 3)
    .add("} catch (err) {", 2)
    .add("if (err instanceof KeyError) return false;", 3)
    .add("throw err;", 3)
    .add("}", 2);
  src.add("};", 1);
  families.forEach((k, i) => src.add(`if (builds(${k.fn})) return ${str(names[i])};`, 1));
  src.add("return undefined;", 1);
  src.add("}");
}
