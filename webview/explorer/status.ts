/**
 * The explorer's status area: the cost line (what the last query cost, and
 * what was inserted or deleted since), the progress of a long operation
 * with its Cancel button, and the error — as every page shows one
 * (../problem.ts): a sentence, the service's own answer behind a toggle.
 */
import { clear, h } from "../dom";
import { Problem, problemArea, showProblem } from "../problem";
import { formatCount } from "@core/text/words";

export class StatusArea {
  readonly cost = h("div", { class: "cost", role: "status", "aria-live": "polite" });
  readonly error = problemArea();
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
    showProblem(this.error, problem);
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
      this.progressText.textContent = `${label}: ${formatCount(done)}${total ? ` of ${formatCount(total)}` : ""}`;
    }
  }

  endProgress(): void {
    this.progress.hidden = true;
    this.onCancel = undefined;
  }
}
