/**
 * The fix of a drifting key: "use the generated builder". When the table's
 * module (`<table>.keys.ts`, written by `tdl codegen`) sits beside the code
 * or beside the design, the key expression becomes the builder's call with
 * the values the code already uses, and the module is imported; when it is
 * missing, or was generated from another version of the table (its
 * design fingerprint differs), the fix runs `tableDesign.generateKeyBuilders`
 * with the design and the table's name.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { Fix, TextEdit } from "@core";
import { freshName } from "../edits";
import { skipOuter } from "../key-parts";
import type { DesignTable } from "./design-index";
import { layout, Shape } from "./shape";
import { fingerprintOnDisk, GENERATE_COMMAND, regenerateFix } from "./generated";

export { GENERATE_COMMAND } from "./generated";

/** Where the table's generated module is, if it exists: beside the code, else beside the design. */
export function builderModule(codeFile: string, design: DesignTable): string | undefined {
  const name = `${design.name}.keys.ts`;
  const dirs = [path.dirname(codeFile)];
  const designFile = design.source.startsWith("file:")
    ? safeFilePath(design.source)
    : path.isAbsolute(design.source)
      ? design.source
      : undefined;
  if (designFile) dirs.push(path.dirname(designFile));
  for (const d of dirs) {
    const f = path.join(d, name);
    if (fs.existsSync(f)) return f;
  }
  return undefined;
}

function safeFilePath(uri: string): string | undefined {
  try {
    // The layer may not import node:url (test/unit/layers.test.ts): the global URL, percent-decoded.
    return decodeURIComponent(new URL(uri).pathname);
  } catch {
    return undefined;
  }
}

export interface BuilderFixInput {
  sf: ts.SourceFile;
  key: ts.Expression;
  code: Shape;
  design: DesignTable;
  /** `partitionKey`, `rowKey` or `rowKey<Index>`: the builder's name in the module. */
  builder: string;
  /** The design's property names the builder takes. */
  props: string[];
}

/** The builder's call replacing the key (with the import), or the command that generates the module. */
export function builderFix(input: BuilderFixInput): Fix | undefined {
  const { sf, design } = input;
  const module = builderModule(sf.fileName, design);
  if (!module) {
    return {
      title: `Generate the key builders of table ${design.name} (${design.name}.keys.ts)`,
      edits: [],
      command: { command: GENERATE_COMMAND, arguments: [design.source, design.name] },
    };
  }
  // A module generated from another version of the table builds other keys: write it again, never "use" it as it is.
  if (fingerprintOnDisk(module) !== design.fingerprint) return regenerateFix(design, module);
  const args = argumentsFor(input);
  if (!args) return undefined;
  let spec = path.relative(path.dirname(sf.fileName), module).split(path.sep).join("/").replace(/\.ts$/, ".js");
  if (!spec.startsWith(".")) spec = `./${spec}`;
  const { alias, edit } = namespaceImport(sf, spec, `${design.name.replace(/[^A-Za-z0-9_$]/g, "_")}Keys`);
  const edits: TextEdit[] = [{ start: input.key.getStart(sf), end: input.key.getEnd(), newText: `${alias}.${input.builder}(${args})` }];
  if (edit) edits.unshift(edit);
  return { title: `Use the generated builder: ${alias}.${input.builder}(…)`, edits, preferred: true };
}

/** `{ Event: r.event, Bib: r.bib }`: each property the builder takes, from the value the code renders for it. */
function argumentsFor({ sf, code, props }: BuilderFixInput): string | undefined {
  const slots = layout(code).slots;
  const pairs: string[] = [];
  for (const prop of props) {
    const slot = slots.find((s) => s.props.some((n) => n.toLowerCase() === prop.toLowerCase()));
    if (!slot?.node || slot.node.getSourceFile() !== sf) return undefined;
    pairs.push(`${/^[A-Za-z_$][\w$]*$/.test(prop) ? prop : JSON.stringify(prop)}: ${rawValue(sf, slot.node)}`);
  }
  return `{ ${pairs.join(", ")} }`;
}

/** The value under its rendering: `String(r.bib).padStart(5, "0")` → `r.bib`. */
function rawValue(sf: ts.SourceFile, node: ts.Node): string {
  let n = node as ts.Expression;
  for (;;) {
    const e = skipOuter(n);
    if (
      ts.isCallExpression(e) &&
      ts.isPropertyAccessExpression(e.expression) &&
      ["padStart", "padEnd", "toString"].includes(e.expression.name.text)
    )
      n = e.expression.expression;
    else if (ts.isCallExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === "String" && e.arguments.length === 1)
      n = e.arguments[0];
    else return e.getText(sf);
  }
}

/** The namespace the file imports the module under, or a new `import * as Alias` after the last import. */
function namespaceImport(sf: ts.SourceFile, spec: string, base: string): { alias: string; edit?: TextEdit } {
  let lastImportEnd = 0;
  const bare = spec.replace(/\.js$/, "");
  for (const st of sf.statements) {
    if (!ts.isImportDeclaration(st)) continue;
    lastImportEnd = st.getEnd();
    const from = ts.isStringLiteral(st.moduleSpecifier) ? st.moduleSpecifier.text.replace(/\.(js|ts)$/, "") : "";
    const ns = st.importClause?.namedBindings;
    if (from === bare && ns && ts.isNamespaceImport(ns)) return { alias: ns.name.text };
  }
  const alias = freshName(sf, base);
  const text = `import * as ${alias} from ${JSON.stringify(spec)};`;
  return {
    alias,
    edit: lastImportEnd ? { start: lastImportEnd, end: lastImportEnd, newText: `\n${text}` } : { start: 0, end: 0, newText: `${text}\n` },
  };
}
