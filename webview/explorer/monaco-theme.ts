/**
 * Monaco follows VS Code's colour theme, live. VS Code marks the webview's
 * body with the theme's kind (`vscode-light`, `vscode-dark`,
 * `vscode-high-contrast`, and for high-contrast light both
 * `vscode-high-contrast` and `vscode-high-contrast-light`) and sets the
 * theme's colours as `--vscode-*` variables on the root element; both change
 * when the user switches theme. Monaco's token colours come from the
 * matching built-in base theme, its surfaces from those variables (the
 * editor looks like VS Code's own input boxes).
 */
import * as monaco from "monaco-editor/editor/editor.api";

export type MonacoBase = "vs" | "vs-dark" | "hc-black" | "hc-light";

const THEME = "tdl-webview";

/** Monaco colour id → the VS Code variable it takes its value from. */
const COLOURS: Record<string, string> = {
  "editor.background": "--vscode-input-background",
  "editor.foreground": "--vscode-input-foreground",
  "editorCursor.foreground": "--vscode-editorCursor-foreground",
  "editor.selectionBackground": "--vscode-editor-selectionBackground",
  "editor.inactiveSelectionBackground": "--vscode-editor-inactiveSelectionBackground",
  "editorError.foreground": "--vscode-editorError-foreground",
  "editorWidget.background": "--vscode-editorWidget-background",
  "editorWidget.foreground": "--vscode-editorWidget-foreground",
  "editorWidget.border": "--vscode-editorWidget-border",
  "editorSuggestWidget.background": "--vscode-editorSuggestWidget-background",
  "editorSuggestWidget.foreground": "--vscode-editorSuggestWidget-foreground",
  "editorSuggestWidget.border": "--vscode-editorSuggestWidget-border",
  "editorSuggestWidget.selectedBackground": "--vscode-editorSuggestWidget-selectedBackground",
  "editorSuggestWidget.highlightForeground": "--vscode-editorSuggestWidget-highlightForeground",
  "editorHoverWidget.background": "--vscode-editorHoverWidget-background",
  "editorHoverWidget.foreground": "--vscode-editorHoverWidget-foreground",
  "editorHoverWidget.border": "--vscode-editorHoverWidget-border",
  focusBorder: "--vscode-focusBorder",
  contrastBorder: "--vscode-contrastBorder",
  contrastActiveBorder: "--vscode-contrastActiveBorder",
};

/** The built-in theme whose token colours fit the body's theme kind. */
export function baseTheme(body: HTMLElement = document.body): MonacoBase {
  const kind = body.classList;
  if (kind.contains("vscode-high-contrast-light")) return "hc-light";
  if (kind.contains("vscode-high-contrast")) return "hc-black";
  if (kind.contains("vscode-dark")) return "vs-dark";
  if (kind.contains("vscode-light")) return "vs";
  // Outside VS Code (a plain browser): the system's preference.
  return window.matchMedia?.("(prefers-color-scheme: dark)").matches ? "vs-dark" : "vs";
}

let parser: CanvasRenderingContext2D | null | undefined;

/** A CSS colour as Monaco wants it (#rrggbb or #rrggbbaa), read by the browser's own parser; undefined if it is none. */
export function toHex(css: string): string | undefined {
  const value = css.trim();
  if (!value) return undefined;
  parser ??= document.createElement("canvas").getContext("2d");
  if (!parser) return undefined;
  // An unreadable colour leaves fillStyle as it was: two different sentinels tell it apart.
  parser.fillStyle = "#000000";
  parser.fillStyle = value;
  const first = parser.fillStyle;
  parser.fillStyle = "#ffffff";
  parser.fillStyle = value;
  if (parser.fillStyle !== first) return undefined;
  if (first.startsWith("#")) return first;
  const m = /^rgba\((\d+), (\d+), (\d+), ([\d.]+)\)$/.exec(first);
  if (!m) return undefined;
  const byte = (n: number) => Math.round(n).toString(16).padStart(2, "0");
  return `#${byte(+m[1])}${byte(+m[2])}${byte(+m[3])}${byte(+m[4] * 255)}`;
}

/** Defines the theme from the current variables and makes it Monaco's. */
export function applyTheme(): void {
  const styles = getComputedStyle(document.documentElement);
  const colors: Record<string, string> = {};
  for (const [id, variable] of Object.entries(COLOURS)) {
    const value = toHex(styles.getPropertyValue(variable));
    if (value) colors[id] = value;
  }
  monaco.editor.defineTheme(THEME, { base: baseTheme(), inherit: true, rules: [], colors });
  monaco.editor.setTheme(THEME);
}

let following = false;

/** Applies the theme now and again whenever VS Code changes the body's kind or the variables (at most once a frame). */
export function followTheme(): void {
  applyTheme();
  if (following) return;
  following = true;
  let queued = false;
  const again = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      applyTheme();
    });
  };
  const observer = new MutationObserver(again);
  observer.observe(document.body, { attributes: true, attributeFilter: ["class"] });
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ["style", "class"] });
  window.matchMedia?.("(prefers-color-scheme: dark)").addEventListener("change", again);
}
