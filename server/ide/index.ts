/**
 * The IDE features over an analysed design: completion, hover, outline,
 * definition, references and rename. Transport-free: an analysis and offsets
 * in, plain results out; the LSP layer converts them at the edge.
 */
export { complete } from "./completion";
export type { Completion, CompletionKind } from "./completion";
export { hover } from "./hover";
export type { HoverResult } from "./hover";
export { boundedOutline, outline } from "./symbols";
export type { OutlineCut, OutlineSymbol, SymbolKind } from "./symbols";
export { definition, references, prepareRename, rename } from "./navigation";
