/**
 * The write sites of each table across a project, so that a constant
 * partition key is judged for the whole table: when every write of a table
 * uses the same constant, the table is one partition; when other writes
 * spread the keys, one constant site matters less. Each file's sites are
 * computed once per version of its syntax tree (unchanged files keep
 * theirs across edits of others), only for files that can call the SDK.
 */
import * as path from "node:path";
import ts from "typescript";
import { Budget } from "./budget";
import { EntityWrite, FileUsage, UsageFinder } from "./calls";
import { constantText, KeyDecomposer } from "./key-parts";
import { Key, keyIdentity, locationOf, writtenPartitionKeys } from "./written-keys";
import { mayCallSdk, sdkResolves } from "./sdk";
import { Wrappers } from "./summaries";

export interface TableSite {
  file: string;
  /** 1-based line of the write. */
  line: number;
  /** Where a finding on the site is reported (0-based): the key itself, or the call made here when a helper builds it. */
  at: { line: number; character: number };
  /** The partition key when every entity written there gets the same one. */
  constant?: string;
  /** The key cannot be seen (an entity passed through, a key copied from a read): the site neither spreads nor concentrates. */
  unknown?: boolean;
  /** Where the key is (`keyIdentity`): sites with the same identity write one key through several calls. */
  key?: string;
  /** The finding is reported at the key's own expression (not at a call of a helper that builds it). */
  atKey?: boolean;
  /** The write may create entities (not only update those that exist). */
  creates: boolean;
  /** A constant written through a client that writes varying keys too: a side partition of that table. */
  side?: boolean;
  /** A constant partition key with a constant row key: one row of its own (a settings row), neither spreading nor concentrating. */
  oneRow?: boolean;
  /** That constant row key (rows of one partition with several constant row keys are several rows, not one). */
  rowKey?: string;
  /** A constant partition key with a row key its declared type closes to a few literals (`name: "student" | "lead"`). */
  fixedRows?: boolean;
  /** Those literals: the rows the site can write. */
  rowKeys?: string[];
}

/**
 * The row keys a write can write when the row key is not one constant but its declared type closes it to
 * literals (`rowKey: name` with `name: "student" | "lead"`): a fixed set of named rows (counters, settings),
 * not data that grows in the partition. Undefined when the type admits any string.
 */
export function closedRowKeys(w: EntityWrite, decomposer: KeyDecomposer): string[] | undefined {
  if (!w.rowKey || constantText(decomposer.parts(w.rowKey, 0, w.rowKeyEnv)) !== undefined) return undefined;
  const t = decomposer.checker.getTypeAtLocation(w.rowKey);
  const members = t.isUnion() ? t.types : [t];
  if (!members.every((m) => m.isStringLiteral())) return undefined;
  return members.map((m) => (m as ts.StringLiteralType).value);
}

export interface TableSites {
  /** The table, or undefined for the writes whose table is not known statically. */
  table?: string;
  sites: TableSite[];
  /** Some files of the project were not reached within the time budget: no table-wide claim holds. */
  incomplete?: boolean;
}

/**
 * Test code: `*.test.*`, `*.spec.*`, and anything under a folder named
 * `__tests__`, `test` or `tests` in the project (folders above the project's
 * own folder do not count: a project kept under someone's `test/` is not a test).
 */
export function isTestFile(fileName: string, projectDir: string): boolean {
  if (/\.(test|spec)\.[cm]?[jt]sx?$/.test(fileName)) return true;
  const rel = path.relative(projectDir, fileName);
  const inside = rel.startsWith("..") || path.isAbsolute(rel) ? path.basename(fileName) : rel;
  return /(^|\/)(__tests__|tests?)\//.test(`${path.basename(projectDir)}/${inside}`.split(path.sep).join("/"));
}

type Known = Array<{ table: string | undefined; site: TableSite }>;

/**
 * The key a write's table is indexed under: its name, or `~` and the source of its name when that is not a
 * literal (writes through clients whose name comes from one expression write one table); undefined when neither.
 */
export function tableKeyOf(w: Pick<EntityWrite, "table" | "tableSource">): string | undefined {
  return w.table ?? (w.tableSource ? `~${w.tableSource.id}` : undefined);
}

export class TableIndex {
  private readonly perFile = new WeakMap<ts.SourceFile, Known>();

  /** Keeps the sites of a file just analysed, from its usage: the file is not walked a second time for the index. */
  record(sf: ts.SourceFile, usage: FileUsage, decomposer: KeyDecomposer): void {
    this.perFile.set(sf, sitesOf(sf, usage, decomposer));
  }

  /**
   * The write sites of `table` (undefined: of the writes whose table is not known) in the program's files (test files only when `tests` says so). Files
   * not seen yet are analysed within `budget`; those it does not reach make the answer `incomplete`.
   */
  sites(
    program: ts.Program,
    files: readonly string[],
    projectDir: string,
    table: string | undefined,
    tests: boolean,
    budget: Budget,
  ): TableSites {
    const sites: TableSite[] = [];
    let incomplete = false;
    for (const f of files) {
      if (!tests && isTestFile(f, projectDir)) continue;
      const sf = program.getSourceFile(f);
      if (!sf) continue;
      let known = this.perFile.get(sf);
      if (!known) {
        known = budget.guard<Known | undefined>("the write sites of other files of the project", undefined, () =>
          fileSites(program, sf, budget),
        );
        if (!known) {
          incomplete = true;
          continue;
        }
        this.perFile.set(sf, known);
      }
      for (const s of known) if (s.table === table) sites.push(s.site);
    }
    return { table, sites, ...(incomplete ? { incomplete } : {}) };
  }
}

/** `x.partitionKey`: a key copied from an entity that was read, whatever it was. */
function copiesStoredKey(e: ts.Expression): boolean {
  return ts.isPropertyAccessExpression(e) && e.name.text === "partitionKey";
}

function fileSites(program: ts.Program, sf: ts.SourceFile, budget: Budget): Known {
  // As the analysis itself: a file that names an SDK method, or calls a helper of the program that writes through one.
  const wrappers = Wrappers.of(program);
  if (!mayCallSdk(sf.text) && !wrappers.mentionedIn(sf.text)) return [];
  const checker = program.getTypeChecker();
  const decomposer = new KeyDecomposer(checker, budget);
  return sitesOf(sf, new UsageFinder(checker, sf, decomposer, wrappers, sdkResolves(program)).find(), decomposer);
}

function sitesOf(sf: ts.SourceFile, usage: FileUsage, decomposer: KeyDecomposer): Known {
  const out: Known = [];
  const keyed = new Set<EntityWrite>();
  const keys = writtenPartitionKeys(usage, decomposer);
  for (const key of keys) {
    keyed.add(key.write!);
    const side = sameClientVaries(keys, key, decomposer.checker);
    const constant = constantText(key.parts);
    const w = key.write!;
    const rowKey = constant !== undefined && w.rowKey ? constantText(decomposer.parts(w.rowKey, 0, w.rowKeyEnv)) : undefined;
    const oneRow = rowKey !== undefined;
    const rowKeys = constant !== undefined && !oneRow ? closedRowKeys(w, decomposer) : undefined;
    const unknown = constant === undefined && copiesStoredKey(key.expr);
    const at = locationOf(key.at);
    out.push({
      table: tableKeyOf(key.write!),
      site: {
        ...siteOf(sf, key.write!),
        at: { line: at.line, character: at.character },
        ...(constant !== undefined ? { constant } : {}),
        ...(unknown ? { unknown } : {}),
        key: keyIdentity(key),
        ...(key.at === key.expr ? { atKey: true } : {}),
        ...(side ? { side } : {}),
        ...(oneRow ? { oneRow, rowKey } : {}),
        ...(rowKeys ? { fixedRows: true, rowKeys } : {}),
      },
    });
  }
  // Writes whose key is not in sight (an entity passed through): they count for neither side.
  for (const w of [...usage.writes, ...usage.transactions.flatMap((t) => t.writes)]) {
    if (keyed.has(w) || w.method === "delete" || w.partitionKey) continue;
    out.push({ table: tableKeyOf(w), site: { ...siteOf(sf, w), unknown: true } });
  }
  return out;
}

function siteOf(sf: ts.SourceFile, w: EntityWrite): Pick<TableSite, "file" | "line" | "at" | "creates"> {
  const { line, character } = sf.getLineAndCharacterOfPosition(w.call.getStart(sf));
  return { file: sf.fileName, line: line + 1, at: { line, character }, creates: !/^update/i.test(w.method) };
}

/** The client a write goes through: the receiver of its SDK call. */
function clientOf(key: Key): ts.Expression | undefined {
  // A write through a helper goes through the helper's parameter: every caller's table, not one client.
  if (key.write?.via) return undefined;
  const call = key.write?.call;
  return call && ts.isPropertyAccessExpression(call.expression) ? call.expression.expression : undefined;
}

/**
 * True when another write of the file, through the same client variable, writes a partition key that varies: a
 * constant beside it is a side partition (index or meta rows) of that table, whatever the table's name.
 */
export function sameClientVaries(keys: readonly Key[], key: Key, checker: ts.TypeChecker): boolean {
  const mine = clientOf(key);
  const sym = mine && ts.isIdentifier(mine) ? checker.getSymbolAtLocation(mine) : undefined;
  if (!sym) return false;
  return keys.some((k) => {
    if (k === key || k.which !== "partitionKey" || !k.write || k.write.method === "delete" || constantText(k.parts) !== undefined)
      return false;
    // A key copied from a stored entity (`row.partitionKey`) may be the constant itself.
    if (copiesStoredKey(k.expr)) return false;
    const other = clientOf(k);
    return !!other && ts.isIdentifier(other) && checker.getSymbolAtLocation(other) === sym;
  });
}
