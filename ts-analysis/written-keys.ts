/**
 * The keys a file builds, as the key rules and the project's index of write
 * sites read them: the partition and row keys of entities written (alone or
 * in transactions, here or through a helper), and the keys of point reads and
 * deletes. A key has an identity — where its expression and its parts are —
 * so that one key reached by several calls is one problem, however many
 * callers write through it.
 */
import * as path from "node:path";
import ts from "typescript";
import type { EntityWrite, FileUsage } from "./usage";
import { KeyDecomposer, TsKeyPart } from "./key-parts";

/** A partitionKey or rowKey expression the code builds, with its parts. */
export interface Key {
  which: "partitionKey" | "rowKey";
  expr: ts.Expression;
  parts: TsKeyPart[];
  table?: string;
  write?: EntityWrite;
  /** The key comes from the entity's declared type, not from an expression (`expr` is then the entity). */
  declared?: boolean;
  /**
   * Where in this file a finding on the key is reported: `expr` itself, or the call made here when the key is
   * built in a helper elsewhere (fixes then edit nothing: the helper serves other callers too).
   */
  at: ts.Node;
}

/** Every key the file builds: entities written (alone or in transactions), and the keys of getEntity/deleteEntity. */
export function writtenKeys(usage: FileUsage, d: KeyDecomposer): Key[] {
  const out: Key[] = [];
  const writes = [...usage.writes, ...usage.transactions.flatMap((t) => t.writes)];
  const skipped = "the keys of some writes (not decomposed)";
  for (const w of writes) {
    d.budget.guard(skipped, undefined, () => {
      if (w.partitionKey) out.push(...keyOf("partitionKey", w.partitionKey, d.parts(w.partitionKey, 0, w.partitionKeyEnv), w));
      else if (w.declaredPartitionKey !== undefined) out.push(declaredKey(w, w.declaredPartitionKey));
      if (w.rowKey) out.push(...keyOf("rowKey", w.rowKey, d.parts(w.rowKey, 0, w.rowKeyEnv), w));
    });
  }
  for (const k of usage.keyed) {
    d.budget.guard(skipped, undefined, () => {
      out.push({ which: "partitionKey", expr: k.partitionKey, parts: d.parts(k.partitionKey), table: k.table, at: k.partitionKey });
      out.push({ which: "rowKey", expr: k.rowKey, parts: d.parts(k.rowKey), table: k.table, at: k.rowKey });
    });
  }
  return out;
}

/** The partition keys of the entities a file writes (deletes excluded): what the load rules and the table index read. */
export function writtenPartitionKeys(usage: FileUsage, d: KeyDecomposer): Key[] {
  return writtenKeys({ ...usage, keyed: [] }, d).filter((k) => k.which === "partitionKey" && k.write && k.write.method !== "delete");
}

/**
 * Where a key is: its expression and the nodes of its parts (a helper's parameter bound by a caller's
 * literal is that caller's key). Two writes with the same identity write the same key: one problem.
 */
export function keyIdentity(key: Key): string {
  const at = (n: ts.Node) => `${n.getSourceFile().fileName}:${n.getStart()}`;
  return [at(key.expr), ...key.parts.map((p) => at(p.node))].join("|");
}

/** A position of a node as a related location carries it (0-based line and character). */
export function locationOf(n: ts.Node): { file: string; line: number; character: number } {
  const sf = n.getSourceFile();
  const { line, character } = sf.getLineAndCharacterOfPosition(n.getStart(sf));
  return { file: path.normalize(sf.fileName), line, character };
}

/** `partitionKey: "VISITOR"` in the entity's declared type: the key is that literal wherever the type is written. */
function declaredKey(w: EntityWrite, value: string): Key {
  return {
    which: "partitionKey",
    expr: w.entity,
    parts: [{ kind: "value", node: w.entity, type: "string", literals: [value] }],
    table: w.table,
    write: w,
    declared: true,
    at: w.entity.getSourceFile() === w.call.getSourceFile() ? w.entity : w.call,
  };
}

/**
 * A key of a write. Its expression may sit in a helper the write goes through (another file, or a
 * helper called from several places): the finding is then reported at the call made here.
 */
function keyOf(which: Key["which"], expr: ts.Expression, parts: Key["parts"], w: EntityWrite): Key[] {
  const helper = w.via && enclosingFunction(w.via);
  // A key built wholly inside the helper a write goes through is the helper's own finding, reported there, not at each call.
  if (helper && within(expr, helper) && parts.every((p) => within(p.node, helper))) return [];
  const here = expr.getSourceFile() === w.call.getSourceFile() && !(helper && within(expr, helper));
  return [{ which, expr, parts, table: w.table, write: w, at: here ? expr : w.call }];
}

function enclosingFunction(n: ts.Node): ts.Node | undefined {
  let p = n.parent;
  while (p && !ts.isFunctionLike(p)) p = p.parent;
  return p;
}

/** True when `n` is inside `scope` (the helper's body the write is made in). */
function within(n: ts.Node, scope: ts.Node | undefined): boolean {
  for (let p: ts.Node | undefined = n; p; p = p.parent) if (p === scope) return true;
  return false;
}
