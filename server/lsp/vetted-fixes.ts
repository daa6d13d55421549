/**
 * Quick fixes checked when the user opens the lightbulb, not while typing:
 * publishing diagnostics stays as fast as it was (their `data.fixes` are
 * the raw candidates), and a code action request checks the fixes of the
 * findings it names (`core/fixes/vet.ts`) — each applied to a copy of the
 * design and analysed again — within a time budget. The answers are kept
 * per document version, so asking again costs nothing. What the budget
 * left no time for is offered as it was, marked "(not checked)".
 */
import { CodeAction, CodeActionKind, Diagnostic } from "vscode-languageserver/node";
import { Finding, Fix, vetFixes } from "@core";
import { codeActionsFor, toLspEdits } from "./convert";
import type { DesignDoc } from "./feature";

/** How long one code action request may spend checking fixes (a lightbulb should open at once). */
export const VET_BUDGET_MS = 150;

/** Documents whose checked fixes are kept (each only at its latest version). */
const MAX_DOCUMENTS = 32;

/** A finding's fixes as offered: checked (best first), then those left unchecked for want of time. */
type Offer = Fix[];

/** The checked fixes of each document's latest version, by finding. */
class OfferCache {
  private readonly docs = new Map<string, { version: number; offers: Map<string, Offer> }>();

  /** The offers of `uri` at `version`; a new version forgets the old one's. */
  of(uri: string, version: number): Map<string, Offer> {
    const hit = this.docs.get(uri);
    if (hit && hit.version === version) return hit.offers;
    this.docs.delete(uri);
    if (this.docs.size >= MAX_DOCUMENTS) this.docs.delete(this.docs.keys().next().value!);
    const offers = new Map<string, Offer>();
    this.docs.set(uri, { version, offers });
    return offers;
  }
}

const cache = new OfferCache();

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/** The finding a diagnostic of ours was made from (same code, same range), if the design still has it. */
function findingOf(design: DesignDoc, d: Record<string, unknown>): Finding | undefined {
  const range = d.range;
  if (!isRecord(range) || !isRecord(range.start) || !isRecord(range.end)) return undefined;
  const pos = (p: Record<string, unknown>) =>
    Number.isInteger(p.line) && Number.isInteger(p.character) ? { line: p.line as number, character: p.character as number } : undefined;
  const start = pos(range.start);
  const end = pos(range.end);
  if (!start || !end) return undefined;
  const [s, e] = [design.lines.offset(start), design.lines.offset(end)];
  return design.analysis.findings.find((f) => f.code === d.code && f.start === s && f.end === e && f.fixes?.length);
}

/**
 * The code actions of a design's diagnostics: the checked fixes of each
 * finding they name (the first preferred), checked within `budgetMs`; the
 * rest as the diagnostics carry them. `clock` is injectable for tests.
 */
export function vettedCodeActions(
  design: DesignDoc,
  diagnostics: unknown[],
  budgetMs = VET_BUDGET_MS,
  clock: () => number = () => performance.now(),
): CodeAction[] {
  const offers = cache.of(design.uri, design.doc.version);
  const deadline = clock() + budgetMs;
  const actions: CodeAction[] = [];
  const rest: unknown[] = [];
  for (const d of diagnostics) {
    const finding = isRecord(d) && d.source === "tdl" ? findingOf(design, d) : undefined;
    if (!finding) {
      rest.push(d);
      continue;
    }
    const key = `${finding.code}@${finding.start}-${finding.end}`;
    let offer = offers.get(key);
    if (!offer) {
      const vet = vetFixes(design.analysis, finding, { clock, deadline });
      const complete = vet.unchecked.length === 0;
      offer = [...vet.offered, ...vet.unchecked.map((f) => ({ ...f, title: `${f.title} (not checked)`, preferred: undefined }))];
      // Only a complete check is kept: one cut short by the budget is checked again when asked again.
      if (complete) offers.set(key, offer);
    }
    for (const fix of offer) {
      actions.push({
        title: fix.title,
        kind: CodeActionKind.QuickFix,
        diagnostics: [d as unknown as Diagnostic],
        isPreferred: !!fix.preferred,
        edit: { changes: { [design.uri]: toLspEdits(design.lines, fix.edits) } },
      });
    }
  }
  return [...actions, ...codeActionsFor(design.uri, rest)];
}
