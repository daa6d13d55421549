/**
 * Definition, references and rename of properties, over the reference index.
 */
import { TdlAnalysis, tableAt, TableModel, PropertyRef, refAt, TextEdit } from "@core";
import { InputError } from "@core/errors";

export interface Span {
  start: number;
  end: number;
}

/** The property reference under `offset`, with its table; refs are relative to `tm.base`. */
function target(analysis: TdlAnalysis, offset: number): { tm: TableModel; ref: PropertyRef; decl?: PropertyRef } | undefined {
  const tm = tableAt(analysis, offset);
  if (!tm) return undefined;
  const ref = refAt(tm.refs, offset - tm.base);
  if (!ref) return undefined;
  const decl = tm.refs.find((r) => r.kind === "decl" && r.name === ref.name);
  return { tm, ref, decl };
}

/** The declaration of the property under `offset`. */
export function definition(analysis: TdlAnalysis, offset: number): Span | undefined {
  const t = target(analysis, offset);
  return t?.decl ? { start: t.tm.base + t.decl.start, end: t.tm.base + t.decl.end } : undefined;
}

/** Every place the property under `offset` is named, in its table. */
export function references(analysis: TdlAnalysis, offset: number, includeDeclaration: boolean): Span[] {
  const t = target(analysis, offset);
  if (!t) return [];
  return t.tm.refs
    .filter((r) => r.name === t.ref.name && (includeDeclaration || r.kind !== "decl"))
    .map((r) => ({ start: t.tm.base + r.start, end: t.tm.base + r.end }));
}

/** The span and current name a rename would change, if the caret is on a declared property. */
export function prepareRename(analysis: TdlAnalysis, offset: number): (Span & { placeholder: string }) | undefined {
  const t = target(analysis, offset);
  if (!t?.decl) return undefined;
  return { start: t.tm.base + t.ref.start, end: t.tm.base + t.ref.end, placeholder: t.ref.name };
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Renames a property everywhere its table names it: declaration, keys,
 * indexes, query conditions, `select`, filter strings and `sharing`.
 * Throws an InputError with the user's sentence when the new name is not
 * an identifier or names another property of the table.
 */
export function rename(analysis: TdlAnalysis, offset: number, newName: string): TextEdit[] | undefined {
  const t = target(analysis, offset);
  if (!t?.decl) return undefined;
  if (!IDENT.test(newName))
    throw new InputError(`'${newName}' is not a property name: use letters, digits and _, not starting with a digit`);
  if (newName !== t.ref.name && t.tm.props.has(newName))
    throw new InputError(`table '${t.tm.table.name.text}' already has a property '${newName}'`);
  const base = t.tm.base;
  return t.tm.refs.filter((r) => r.name === t.ref.name).map((r) => ({ start: base + r.start, end: base + r.end, newText: newName }));
}
