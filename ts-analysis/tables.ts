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
import { UsageFinder } from "./calls";
import { constantText } from "./key-parts";
import { mayCallSdk } from "./sdk";

export interface TableSite {
  file: string;
  /** 1-based line of the write. */
  line: number;
  /** The partition key when every entity written there gets the same one. */
  constant?: string;
  /** The key cannot be seen (an entity passed through, a key copied from a read): the site neither spreads nor concentrates. */
  unknown?: boolean;
}

export interface TableSites {
  table: string;
  sites: TableSite[];
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

type Known = Array<{ table: string; site: TableSite }>;

export class TableIndex {
  private readonly perFile = new WeakMap<ts.SourceFile, Known>();

  /** The write sites of `table` in the program's files (test files only when `tests` says so). */
  sites(program: ts.Program, files: readonly string[], projectDir: string, table: string, tests: boolean): TableSites {
    const sites: TableSite[] = [];
    for (const f of files) {
      if (!tests && isTestFile(f, projectDir)) continue;
      const sf = program.getSourceFile(f);
      if (!sf) continue;
      let known = this.perFile.get(sf);
      if (!known) {
        known = fileSites(program.getTypeChecker(), sf);
        this.perFile.set(sf, known);
      }
      for (const s of known) if (s.table === table) sites.push(s.site);
    }
    return { table, sites };
  }
}

/** `x.partitionKey`: a key copied from an entity that was read, whatever it was. */
function copiesStoredKey(e: ts.Expression): boolean {
  return ts.isPropertyAccessExpression(e) && e.name.text === "partitionKey";
}

function fileSites(checker: ts.TypeChecker, sf: ts.SourceFile): Known {
  const out: Known = [];
  if (!mayCallSdk(sf.text)) return out;
  const finder = new UsageFinder(checker, sf);
  const usage = finder.find();
  const writes = [...usage.writes, ...usage.transactions.flatMap((t) => t.writes)];
  for (const w of writes) {
    if (!w.table || w.method === "delete") continue;
    const parts = w.partitionKey ? finder.decomposer.parts(w.partitionKey) : undefined;
    const constant = parts ? constantText(parts) : w.declaredPartitionKey;
    const line = sf.getLineAndCharacterOfPosition(w.call.getStart(sf)).line + 1;
    const unknown = constant === undefined && (!parts || copiesStoredKey(w.partitionKey!));
    out.push({
      table: w.table,
      site: { file: sf.fileName, line, ...(constant !== undefined ? { constant } : {}), ...(unknown ? { unknown } : {}) },
    });
  }
  return out;
}
