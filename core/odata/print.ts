/**
 * Prints a parsed filter back as OData text, with only the parentheses the
 * precedence needs (`not` > comparison > `and` > `or`). Parsing the printed
 * text gives the same tree again, which the fuzzers check.
 */
import { FilterExpr, Literal } from "./parser";

/** A string as an OData literal: in single quotes, each quote doubled. */
export function stringLiteral(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

/** A literal as the filter writes it: quotes doubled, typed prefixes, the int64 suffix. */
export function printLiteral(v: Literal): string {
  switch (v.type) {
    case "string":
      return stringLiteral(v.value);
    case "int64":
      return `${v.value}L`;
    // A double written without point or exponent ("2d") keeps its suffix to stay a double.
    case "double":
      return /[.eE]/.test(v.value) ? v.value : `${v.value}d`;
    case "datetime":
      return `datetime'${v.value}'`;
    case "guid":
      return `guid'${v.value}'`;
    case "binary":
      return `X'${v.value}'`;
    case "int":
    case "bool":
      return v.value;
  }
}

const RANK = { or: 1, and: 2 } as const;

/** The filter as text; `out` collects the pieces so that printing stays linear. */
export function printFilter(e: FilterExpr): string {
  const out: string[] = [];
  print(e, out);
  return out.join("");
}

function print(e: FilterExpr, out: string[]): void {
  switch (e.kind) {
    case "cmp":
      out.push(`${e.property} ${e.op} ${printLiteral(e.value)}`);
      return;
    case "prop":
      out.push(e.property);
      return;
    case "const":
      out.push(String(e.value));
      return;
    case "not": {
      // `not` takes the term right after it: anything but a bare term or another `not` needs parentheses.
      const bare = e.expr.kind === "prop" || e.expr.kind === "const" || e.expr.kind === "not";
      out.push(bare ? "not " : "not (");
      print(e.expr, out);
      if (!bare) out.push(")");
      return;
    }
    case "and":
    case "or": {
      for (const [side, child] of [
        ["left", e.left],
        ["right", e.right],
      ] as const) {
        if (side === "right") out.push(` ${e.kind} `);
        const wrap = (child.kind === "and" || child.kind === "or") && RANK[child.kind] < RANK[e.kind];
        if (wrap) out.push("(");
        print(child, out);
        if (wrap) out.push(")");
      }
      return;
    }
  }
}
