/**
 * A transaction across what the design says are different partitions: the
 * entities of one `submitTransaction` whose partition keys render a
 * property of the design's partition key from different values (the debit
 * row keyed by `from.account`, the credit row by `to.account`). The
 * service rejects such a batch whenever the values differ.
 */
import ts from "typescript";
import type { TransactionCall } from "../calls";
import type { KeyDecomposer } from "../key-parts";
import type { DesignTable } from "./design-index";
import { codeShape, layout } from "./shape";

export interface SplitTransaction {
  call: ts.CallExpression;
  /** The design property whose values differ, and the code's values for it. */
  prop: string;
  values: string[];
}

/** The first property of the design's partition key that the transaction's entities take from different values, if any. */
export function splitTransaction(tx: TransactionCall, design: DesignTable, decomposer: KeyDecomposer): SplitTransaction | undefined {
  const props = design.keyProps.partitionKey;
  if (tx.writes.length < 2 || !props.length) return undefined;
  const valuesOf = new Map<string, Set<string>>(props.map((p) => [p, new Set()]));
  for (const w of tx.writes) {
    if (!w.partitionKey) return undefined;
    const slots = layout(codeShape(decomposer.parts(w.partitionKey))).slots;
    for (const prop of props) {
      const slot = slots.find((s) => s.props.some((n) => n.toLowerCase() === prop.toLowerCase()));
      // A write whose key does not name the property: nothing can be said about this transaction.
      if (!slot?.node) return undefined;
      valuesOf.get(prop)!.add(valueText(slot.node));
    }
  }
  for (const [prop, values] of valuesOf) if (values.size > 1) return { call: tx.call, prop, values: [...values] };
  return undefined;
}

/** The value's text with its rendering removed: `String(to.day).padStart(5, "0")` → `to.day`. */
function valueText(node: ts.Node): string {
  let e = node as ts.Expression;
  for (;;) {
    if (
      ts.isCallExpression(e) &&
      ts.isPropertyAccessExpression(e.expression) &&
      ["padStart", "padEnd", "toString", "toLowerCase", "toUpperCase"].includes(e.expression.name.text)
    )
      e = e.expression.expression;
    else if (ts.isCallExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === "String" && e.arguments.length === 1)
      e = e.arguments[0];
    else if (ts.isParenthesizedExpression(e)) e = e.expression;
    else return e.getText();
  }
}
