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

/**
 * Monaco colour id → the VS Code variables it takes its value from, the
 * first one set winning: VS Code's own defaults chain the same way (the
 * suggest widget's selected row falls back to the quick input's and the
 * list's), and a colour left to Monaco's default would not match its
 * neighbours — white text on Light Modern's pale grey selection was the
 * light theme's nearly invisible suggestion.
 */
const COLOURS: Record<string, string | readonly string[]> = {
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
  "editorSuggestWidget.selectedBackground": [
    "--vscode-editorSuggestWidget-selectedBackground",
    "--vscode-quickInputList-focusBackground",
    "--vscode-list-activeSelectionBackground",
  ],
  "editorSuggestWidget.selectedForeground": [
    "--vscode-editorSuggestWidget-selectedForeground",
    "--vscode-quickInputList-focusForeground",
    "--vscode-list-activeSelectionForeground",
  ],
  "editorSuggestWidget.selectedIconForeground": [
    "--vscode-editorSuggestWidget-selectedIconForeground",
    "--vscode-quickInputList-focusIconForeground",
    "--vscode-list-activeSelectionIconForeground",
    "--vscode-list-activeSelectionForeground",
  ],
  "editorSuggestWidget.highlightForeground": ["--vscode-editorSuggestWidget-highlightForeground", "--vscode-list-highlightForeground"],
  "editorSuggestWidget.focusHighlightForeground": [
    "--vscode-editorSuggestWidget-focusHighlightForeground",
    "--vscode-list-focusHighlightForeground",
  ],
  "editorHoverWidget.background": "--vscode-editorHoverWidget-background",
  "editorHoverWidget.foreground": "--vscode-editorHoverWidget-foreground",
  "editorHoverWidget.border": "--vscode-editorHoverWidget-border",
  "list.focusOutline": ["--vscode-list-focusOutline", "--vscode-contrastActiveBorder"],
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
  for (const [id, variables] of Object.entries(COLOURS)) {
    for (const variable of typeof variables === "string" ? [variables] : variables) {
      const value = toHex(styles.getPropertyValue(variable));
      if (!value) continue;
      colors[id] = value;
      break;
    }
  }
  // A theme without a selection background (the high-contrast ones) marks the row with its outline: the row keeps the widget's
  // background, where Monaco's own default would be a white row under white text.
  if (!colors["editorSuggestWidget.selectedBackground"] && colors["editorSuggestWidget.background"])
    colors["editorSuggestWidget.selectedBackground"] = colors["editorSuggestWidget.background"];
  readable(colors, "editorSuggestWidget.selectedForeground", "editorSuggestWidget.selectedBackground", "editorSuggestWidget.background");
  const selected = colors["editorSuggestWidget.selectedForeground"];
  if (selected) colors["editorSuggestWidget.selectedIconForeground"] ??= selected;
  monaco.editor.defineTheme(THEME, { base: baseTheme(), inherit: true, rules: [], colors });
  monaco.editor.setTheme(THEME);
}

/**
 * Makes the text colour `fg` readable (4.5:1) on `bg` (or `fallbackBg`
 * when `bg` is not set): a theme that names no text colour for it, or one
 * too close to it, gets black or white, whichever contrasts more.
 */
function readable(colors: Record<string, string>, fg: string, bg: string, fallbackBg: string): void {
  const back = colors[bg] ?? colors[fallbackBg];
  if (!back) return;
  const text = colors[fg];
  if (text && contrast(text, back) >= 4.5) return;
  colors[fg] = contrast("#000000", back) >= contrast("#ffffff", back) ? "#000000" : "#ffffff";
}

/** WCAG contrast of two opaque #rrggbb colours (an alpha is ignored). */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const lin = (i: number) => {
      const c = parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * lin(1) + 0.7152 * lin(3) + 0.0722 * lin(5);
  };
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
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
