/**
 * How every page shows a failure, by its kind (core/errors.ts): a sentence
 * for the user and, behind a "Details" toggle, what the service answered.
 * Usage, input and refused failures are drawn as warnings (the user can
 * act on them), unavailable ones and bugs as errors; a bug also says where
 * its stack is (the Table Design output channel).
 */
import "./problem.css";
import type { ErrorKind } from "@core/errors";
import { clear, h } from "./dom";

/** A message from the host or the page: a sentence, the raw answer behind it, and its kind. */
export interface Problem {
  message: string;
  details?: string;
  kind?: ErrorKind;
}

const KINDS: readonly string[] = ["usage", "input", "refused", "unavailable", "internal"];

/** `the table does not exist` → `The table does not exist.` */
export function sentence(text: string): string {
  const t = text.trim();
  if (!t) return t;
  const first = t[0].toUpperCase() + t.slice(1);
  return /[.!?…)]$/.test(first) ? first : `${first}.`;
}

/** An error as the page shows it, whatever threw it (the host's answers carry `kind` and `details`). */
export function problemOf(e: unknown): Problem {
  const err = e as { message?: unknown; details?: unknown; kind?: unknown } | undefined;
  const message = typeof err?.message === "string" ? err.message : String(e);
  const kind = typeof err?.kind === "string" && KINDS.includes(err.kind) ? (err.kind as ErrorKind) : undefined;
  return {
    message,
    ...(typeof err?.details === "string" && err.details ? { details: err.details } : {}),
    ...(kind ? { kind } : {}),
  };
}

/** A warning (the user can act on it) or an error. */
export function severityOf(problem: Problem): "warning" | "error" {
  return problem.kind === "usage" || problem.kind === "input" || problem.kind === "refused" ? "warning" : "error";
}

/** What a problem shows: its sentence (and, for a bug, where its stack is), and the service's answer behind a "Details" toggle. */
export function problemNodes(problem: Problem): HTMLElement[] {
  const said = sentence(problem.message);
  const text =
    problem.kind === "internal"
      ? `${/[.!?…]$/.test(said) ? said : `${said}.`} This is a bug: the details are in the Table Design output channel.`
      : said;
  const nodes = [h("span", { class: "error-icon", "aria-hidden": "true" }, "⚠"), h("span", { class: "error-message" }, text)];
  if (problem.details) nodes.push(h("details", { class: "error-details" }, h("summary", {}, "Details"), h("pre", {}, problem.details)));
  return nodes;
}

/** Shows `problem` in `area` (an element with the `error` class), marked with its kind and severity. */
export function showProblem(area: HTMLElement, problem: Problem): void {
  clear(area);
  area.hidden = false;
  area.dataset.severity = severityOf(problem);
  if (problem.kind) area.dataset.kind = problem.kind;
  else delete area.dataset.kind;
  area.append(...problemNodes(problem));
}

/** An empty error area, hidden until a problem is shown in it. */
export function problemArea(extraClass = ""): HTMLElement {
  const area = h("div", { class: `error ${extraClass}`.trim(), role: "alert" });
  area.hidden = true;
  return area;
}
