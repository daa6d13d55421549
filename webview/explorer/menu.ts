/**
 * A button that opens a short menu of choices (Import…, Export…): one
 * button where there were four, so the toolbar fits a narrow panel. The
 * menu follows the ARIA menu-button pattern: arrows move between items,
 * Enter or a click chooses, Escape or a click elsewhere closes it.
 */
import { h } from "../dom";

export interface MenuItem {
  label: string;
  /** A class for the item (tests and styles find it by it). */
  name: string;
  run: () => void;
}

export class MenuButton {
  readonly element: HTMLElement;
  readonly button: HTMLButtonElement;
  private readonly list: HTMLElement;

  constructor(label: string, name: string, items: MenuItem[]) {
    this.list = h("div", { class: "menu", role: "menu", "aria-label": label });
    this.list.hidden = true;
    for (const item of items) {
      this.list.append(
        h(
          "button",
          {
            class: `menu-item ${item.name}`,
            role: "menuitem",
            tabindex: "-1",
            onclick: () => {
              this.close();
              item.run();
            },
          },
          item.label,
        ),
      );
    }
    this.button = h(
      "button",
      {
        class: `secondary menu-button ${name}`,
        "aria-haspopup": "menu",
        "aria-expanded": "false",
        onclick: () => (this.list.hidden ? this.open() : this.close()),
      },
      label,
    );
    this.element = h("span", { class: "menu-anchor" }, this.button, this.list);
    this.list.addEventListener("keydown", (e) => this.key(e));
    this.button.addEventListener("keydown", (e) => {
      if (e.key === "ArrowDown") {
        e.preventDefault();
        this.open();
      }
    });
    document.addEventListener("pointerdown", (e) => {
      if (!this.list.hidden && !this.element.contains(e.target as Node)) this.close(false);
    });
  }

  set disabled(value: boolean) {
    this.button.disabled = value;
    if (value) this.close(false);
  }

  get disabled(): boolean {
    return this.button.disabled;
  }

  private items(): HTMLButtonElement[] {
    return [...this.list.querySelectorAll<HTMLButtonElement>(".menu-item")];
  }

  private open(): void {
    this.list.hidden = false;
    this.button.setAttribute("aria-expanded", "true");
    this.items()[0]?.focus();
  }

  private close(refocus = true): void {
    if (this.list.hidden) return;
    this.list.hidden = true;
    this.button.setAttribute("aria-expanded", "false");
    if (refocus) this.button.focus();
  }

  private key(e: KeyboardEvent): void {
    menuKey(e, this.items(), (refocus) => this.close(refocus));
  }
}

/**
 * A menu's keys: arrows move through `items` (wrapping), Home/End jump to
 * the ends, Escape closes and refocuses what opened it, Tab closes and lets
 * the focus move on.
 */
export function menuKey(e: KeyboardEvent, items: HTMLButtonElement[], close: (refocus: boolean) => void): void {
  const at = items.indexOf(document.activeElement as HTMLButtonElement);
  if (e.key === "ArrowDown" || e.key === "ArrowUp") {
    items[(at + (e.key === "ArrowDown" ? 1 : items.length - 1)) % items.length]?.focus();
  } else if (e.key === "Home" || e.key === "End") {
    items[e.key === "Home" ? 0 : items.length - 1]?.focus();
  } else if (e.key === "Escape" || e.key === "Tab") {
    close(e.key === "Escape");
    if (e.key === "Tab") return;
  } else return;
  e.preventDefault();
}
