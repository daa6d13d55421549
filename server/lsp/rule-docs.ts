/**
 * Where each diagnostic code is documented: its row of docs/rules.md, as
 * `Diagnostic.codeDescription.href`, so that the code in a hover or the
 * Problems panel is a link.
 *
 * The link is to the copy of docs/rules.md that ships beside the server
 * (`dist/../docs/rules.md`, in the VSIX as in the repository), as a `file:`
 * URI with the code's anchor: no network, the same version of the rules the
 * server checks, and a URI every LSP client can open (VS Code opens the
 * catalog in an editor; a browser or a Markdown viewer goes to the row).
 * Only codes whose anchor the file holds get a link: a missing file or row
 * gives no link, never a broken one.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { ruleAnchor } from "@core";
import { TERMS_DOC } from "@core/text/terms";

/** The rules catalog: its URI and the anchors it holds. */
export interface RuleDocs {
  uri: string;
  anchors: ReadonlySet<string>;
}

/** Reads the catalog at `file` (the one beside the server by default); undefined when it cannot be read. */
export function loadRuleDocs(file = path.resolve(__dirname, "..", "docs", "rules.md")): RuleDocs | undefined {
  let text: string;
  try {
    // The catalog is tens of kilobytes; a file far larger is not ours.
    if (fs.statSync(file).size > 4 * 1024 * 1024) return undefined;
    text = fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  const anchors = new Set<string>();
  for (const m of text.matchAll(/<a id="([a-z0-9-]+)"><\/a>/g)) anchors.add(m[1]);
  return anchors.size ? { uri: pathToFileURL(file).toString(), anchors } : undefined;
}

let loaded: RuleDocs | undefined | null = null;

/** The catalog beside the server, read once. */
export function ruleDocs(): RuleDocs | undefined {
  if (loaded === null) loaded = loadRuleDocs();
  return loaded;
}

/** The link to `code`'s row, or undefined when the catalog does not document it. */
export function ruleHref(code: string, docs: RuleDocs | undefined = ruleDocs()): string | undefined {
  const anchor = ruleAnchor(code);
  return docs?.anchors.has(anchor) ? `${docs.uri}#${anchor}` : undefined;
}

let termsUri: string | undefined | null = null;

/**
 * The URI of the language reference beside the server (docs/language.md,
 * shipped in the VSIX), whose "Terms" headings the hovers link to; undefined
 * when it is not there, so that a hover never carries a broken link.
 */
export function termsDocUri(): string | undefined {
  const file = path.resolve(__dirname, "..", "docs", TERMS_DOC);
  if (termsUri === null) termsUri = fs.existsSync(file) ? pathToFileURL(file).toString() : undefined;
  return termsUri;
}
