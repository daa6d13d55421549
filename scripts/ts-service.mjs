// The TypeScript LanguageService the benchmarks compare against: over `files` of the project in `dir`,
// with the texts (and versions) the caller holds; other files (lib, node_modules) read from disk.
// Shared by scripts/bench.mjs (TypeScript warm in the bench's process, and its edits) and
// scripts/ts-first-pass.mjs (TypeScript cold in a fresh process).

/**
 * @param {typeof import("typescript")} ts
 * @param {string} dir
 * @param {string[]} files
 * @param {import("typescript").CompilerOptions} options
 * @param {Map<string, { text: string; version: number }>} texts
 */
export function languageService(ts, dir, files, options, texts) {
  const host = {
    getScriptFileNames: () => files,
    getScriptVersion: (f) => String(texts.get(f)?.version ?? 0),
    getScriptSnapshot: (f) => {
      const t = texts.get(f)?.text ?? ts.sys.readFile(f);
      return t === undefined ? undefined : ts.ScriptSnapshot.fromString(t);
    },
    getCurrentDirectory: () => dir,
    getCompilationSettings: () => options,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  };
  return ts.createLanguageService(host, ts.createDocumentRegistry());
}
