/**
 * The explorer's status area: the cost line (what the last query cost, and
 * what was inserted or deleted since), the progress of a long operation
 * with its Cancel button, and the error — a sentence for the user, the
 * service's own answer behind a "Details" toggle.
 */
import { clear, h } from "../dom";

/** A message from the host or the page: a sentence, and the raw answer behind it. */
export interface Problem {
  message: string;
  details?: string;
}

/** `the table does not exist` → `The table does not exist.` */
export function sentence(text: string): string {
  const t = text.trim();
  if (!t) return t;
  const first = t[0].toUpperCase() + t.slice(1);
  return /[.!?…)]$/.test(first) ? first : `${first}.`;
}

/** An error as the page shows it, whatever threw it (the host's answers carry `details`). */
export function problemOf(e: unknown): Problem {
  const err = e as { message?: unknown; details?: unknown } | undefined;
  const message = typeof err?.message === "string" ? err.message : String(e);
  return typeof err?.details === "string" && err.details ? { message, details: err.details } : { message };
}

/** What an error shows: its sentence, and the service's answer behind a "Details" toggle. */
export function problemNodes(problem: Problem): HTMLElement[] {
  const nodes = [
    h("span", { class: "error-icon", "aria-hidden": "true" }, "⚠"),
    h("span", { class: "error-message" }, sentence(problem.message)),
  ];
  if (problem.details) nodes.push(h("details", { class: "error-details" }, h("summary", {}, "Details"), h("pre", {}, problem.details)));
  return nodes;
}

export class StatusArea {
  readonly cost = h("div", { class: "cost", role: "status", "aria-live": "polite" });
  readonly error = h("div", { class: "error", role: "alert" });
  private readonly progressBar = h("progress", { class: "progress-bar", max: "1" });
  private readonly progressText = h("span", { class: "progress-text" });
  private readonly cancelButton = h("button", { class: "secondary cancel" }, "Cancel");
  readonly progress = h(
    "div",
    { class: "progress", role: "status", "aria-live": "polite" },
    this.progressBar,
    this.progressText,
    this.cancelButton,
  );
  private onCancel: (() => void) | undefined;

  constructor() {
    this.progress.hidden = true;
    this.error.hidden = true;
    this.cancelButton.addEventListener("click", () => {
      this.cancelButton.disabled = true;
      this.progressText.textContent = `${this.progressText.textContent} — cancelling…`;
      this.onCancel?.();
    });
  }

  /** The cost line: plain text, or parts of which `elapsed` is set apart (it varies from run to run). */
  setCost(parts: string | { before: string; elapsed: string; after: string }): void {
    clear(this.cost);
    if (typeof parts === "string") this.cost.textContent = parts;
    else this.cost.append(parts.before, h("span", { class: "elapsed" }, parts.elapsed), parts.after);
  }

  get costText(): string {
    return this.cost.textContent ?? "";
  }

  showError(problem: Problem): void {
    clear(this.error);
    this.error.hidden = false;
    this.error.append(...problemNodes(problem));
  }

  clearError(): void {
    clear(this.error);
    this.error.hidden = true;
  }

  /** Shows an operation's progress; `total` unknown draws an indeterminate bar. */
  showProgress(label: string, done: number, total: number | undefined, onCancel?: () => void): void {
    const first = this.progress.hidden;
    this.progress.hidden = false;
    if (first) {
      this.onCancel = onCancel;
      this.cancelButton.disabled = !onCancel;
      this.cancelButton.hidden = !onCancel;
    }
    if (total) {
      this.progressBar.max = total;
      this.progressBar.value = done;
    } else this.progressBar.removeAttribute("value");
    if (!this.cancelButton.disabled || first) {
      this.progressText.textContent = `${label}: ${done.toLocaleString("en-US")}${total ? ` of ${total.toLocaleString("en-US")}` : ""}`;
    }
  }

  endProgress(): void {
    this.progress.hidden = true;
    this.onCancel = undefined;
  }
}
