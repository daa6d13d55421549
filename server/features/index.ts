/**
 * The language server's features: one provider each, wired in one line
 * here. server.ts answers each provider's method through the one wrapper
 * (lsp/feature.ts) and announces the capabilities they declare.
 */
import { codeActions } from "./code-actions";
import { codeLenses } from "./code-lenses";
import { completion } from "./completion";
import { definition } from "./definition";
import { formatting } from "./formatting";
import { hover } from "./hover";
import { references } from "./references";
import { prepareRename, rename } from "./rename";
import { documentSymbols } from "./symbols";

export const FEATURES = [
  completion,
  hover,
  documentSymbols,
  definition,
  references,
  prepareRename,
  rename,
  formatting,
  codeActions,
  codeLenses,
] as const;
