/**
 * Checks of request params against the protocol's contract, before any
 * handler reads them: a client (or anything else on the pipe) may send a
 * missing URI, a negative line or a string where a number belongs, and
 * the answer is then `InvalidParams`, not a crash deep in the analysis.
 * Positions past the end of a document are valid LSP and are clamped later.
 */
import { Position } from "vscode-languageserver/node";
import { InvalidParams } from "./guard";

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/** `params.textDocument.uri`, or InvalidParams. */
export function documentUri(params: unknown): string {
  const td = isObject(params) ? params.textDocument : undefined;
  const uri = isObject(td) ? td.uri : undefined;
  if (typeof uri !== "string") throw new InvalidParams("textDocument.uri must be a string");
  return uri;
}

function isUinteger(x: unknown): x is number {
  return typeof x === "number" && Number.isInteger(x) && x >= 0;
}

/** A position of the protocol (two unsigned integers), or InvalidParams naming the field. */
export function checkPosition(p: unknown, field = "position"): Position {
  if (!isObject(p)) throw new InvalidParams(`${field} must be an object with line and character`);
  if (!isUinteger(p.line)) throw new InvalidParams(`${field}.line must be an unsigned integer`);
  if (!isUinteger(p.character)) throw new InvalidParams(`${field}.character must be an unsigned integer`);
  return { line: p.line, character: p.character };
}

/** `params.position`, checked. */
export function requestPosition(params: unknown): Position {
  return checkPosition(isObject(params) ? params.position : undefined);
}

/** `params.newName` of a rename, checked. */
export function newName(params: unknown): string {
  const name = isObject(params) ? params.newName : undefined;
  if (typeof name !== "string") throw new InvalidParams("newName must be a string");
  return name;
}

/** `params.context.diagnostics` of a code action request; anything but an array is refused. */
export function contextDiagnostics(params: unknown): unknown[] {
  const ctx = isObject(params) ? params.context : undefined;
  const diagnostics = isObject(ctx) ? ctx.diagnostics : undefined;
  if (!Array.isArray(diagnostics)) throw new InvalidParams("context.diagnostics must be an array");
  return diagnostics;
}

export { isObject };
