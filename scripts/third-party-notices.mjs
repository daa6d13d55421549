// The licence notices of every npm package that esbuild bundled into dist/.
// The VSIX ships bundles, not node_modules/, so the packages' own LICENSE
// files no longer travel with their code; their notices are collected here
// (read from each package's folder, from esbuild's metafiles) into one file.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";

const LICENSE_FILE = /^(licen[cs]e|copying|notice)([.-][\w.-]+)?$/i;
const RULE = "=".repeat(78);

/** The package folder (…/node_modules/name or …/node_modules/@scope/name) an input path lies in, or undefined for our own sources. */
function packageDir(input) {
  const parts = input.split(/[\\/]/);
  const at = parts.lastIndexOf("node_modules");
  if (at < 0 || at + 1 >= parts.length) return undefined;
  const len = parts[at + 1].startsWith("@") ? 2 : 1;
  return parts.slice(0, at + 1 + len).join("/");
}

/** A package folder's manifest ({} when it cannot be read: the notice then names the folder). */
function readManifest(dir) {
  try {
    return JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
  } catch {
    return {};
  }
}

function licenseText(dir) {
  let names;
  try {
    names = readdirSync(dir)
      .filter((f) => LICENSE_FILE.test(f))
      .sort();
  } catch {
    return undefined;
  }
  return names.length ? names.map((f) => readFileSync(path.join(dir, f), "utf8").trim()).join("\n\n") : undefined;
}

/**
 * Writes `outfile` from esbuild metafiles: one section per bundled package
 * (name, version, licence id, licence text). Returns how many packages it lists.
 */
export function writeThirdPartyNotices(metafiles, outfile) {
  const dirs = new Set();
  for (const meta of metafiles)
    for (const input of Object.keys(meta.inputs)) {
      const dir = packageDir(input);
      if (dir && existsSync(path.join(dir, "package.json"))) dirs.add(dir);
    }
  const sections = new Map();
  for (const dir of dirs) {
    const m = readManifest(dir);
    const id = `${m.name ?? path.basename(dir)}@${m.version ?? "?"}`;
    if (sections.has(id)) continue;
    const license = typeof m.license === "string" ? m.license : (m.license?.type ?? "see the package");
    sections.set(
      id,
      `${RULE}\n${id} (${license})\n${RULE}\n\n${licenseText(dir) ?? `No licence file in the package; its manifest declares ${license}.`}\n`,
    );
  }
  const ids = [...sections.keys()].sort();
  const header = `Third-party notices\n\nTable Design Assistant bundles these ${ids.length} npm packages into dist/:\n\n${ids.map((id) => `  ${id}\n`).join("")}\nTheir licences follow.\n\n`;
  writeFileSync(outfile, header + ids.map((id) => sections.get(id)).join("\n"));
  return ids.length;
}
