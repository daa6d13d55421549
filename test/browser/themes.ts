/**
 * VS Code's colour themes as a webview sees them: the body's theme-kind
 * classes and the `--vscode-*` variables on the root element. The values
 * are those of VS Code 1.100's Light Modern and Dark Modern
 * (extensions/theme-defaults/themes/*_modern.json) and, for the colours a
 * theme leaves out and for the two high-contrast themes, the defaults of
 * VS Code's colour registry. A variable VS Code leaves unset (a null
 * default, such as a high-contrast button background) is left out here too.
 * `applyTheme` switches a running page the way VS Code does: no reload.
 */
import type { Page } from "playwright-core";

export type ThemeName = "light" | "dark" | "hc-dark" | "hc-light";

export interface Theme {
  /** The body's classes (high-contrast light carries both high-contrast classes). */
  classes: string[];
  colours: Record<string, string>;
}

const FONT = { "font-family": "system-ui, sans-serif", "font-size": "13px", "editor-font-family": "monospace" };

export const THEMES: Record<ThemeName, Theme> = {
  light: {
    classes: ["vscode-light"],
    colours: {
      ...FONT,
      foreground: "#3B3B3B",
      descriptionForeground: "#3B3B3B",
      errorForeground: "#F85149",
      "editor-background": "#FFFFFF",
      "editor-foreground": "#3B3B3B",
      "button-background": "#005FB8",
      "button-foreground": "#FFFFFF",
      "button-hoverBackground": "#0258A8",
      "button-border": "#0000001A",
      "button-secondaryBackground": "#E5E5E5",
      "button-secondaryForeground": "#3B3B3B",
      "button-secondaryHoverBackground": "#CCCCCC",
      "input-background": "#FFFFFF",
      "input-foreground": "#3B3B3B",
      "input-border": "#CECECE",
      "input-placeholderForeground": "#767676",
      focusBorder: "#005FB8",
      "panel-border": "#E5E5E5",
      "sideBar-background": "#F8F8F8",
      "sideBarTitle-foreground": "#3B3B3B",
      "list-activeSelectionBackground": "#E8E8E8",
      "list-activeSelectionForeground": "#000000",
      "list-hoverBackground": "#F2F2F2",
      "list-inactiveSelectionBackground": "#E4E6F1",
      "list-focusOutline": "#005FB8",
      "editorGroup-border": "#E5E5E5",
      "editorError-foreground": "#E51400",
      "editorWarning-foreground": "#BF8803",
      "testing-iconPassed": "#388A34",
      "textLink-foreground": "#005FB8",
      "menu-background": "#FFFFFF",
      "menu-foreground": "#3B3B3B",
      "menu-border": "#CECECE",
      "menu-selectionBackground": "#005FB8",
      "menu-selectionForeground": "#FFFFFF",
      "widget-border": "#E5E5E5",
      "widget-shadow": "#00000029",
      "editorWidget-background": "#F8F8F8",
      "editorWidget-foreground": "#3B3B3B",
      "editorSuggestWidget-background": "#F8F8F8",
      "editorHoverWidget-background": "#F8F8F8",
      "editorHoverWidget-foreground": "#3B3B3B",
      "progressBar-background": "#005FB8",
      "toolbar-hoverBackground": "#B8B8B850",
      "editorCursor-foreground": "#000000",
      "editor-selectionBackground": "#ADD6FF",
    },
  },
  dark: {
    classes: ["vscode-dark"],
    colours: {
      ...FONT,
      foreground: "#CCCCCC",
      descriptionForeground: "#9D9D9D",
      errorForeground: "#F85149",
      "editor-background": "#1F1F1F",
      "editor-foreground": "#CCCCCC",
      "button-background": "#0078D4",
      "button-foreground": "#FFFFFF",
      "button-hoverBackground": "#026EC1",
      "button-border": "#FFFFFF12",
      "button-secondaryBackground": "#313131",
      "button-secondaryForeground": "#CCCCCC",
      "button-secondaryHoverBackground": "#3C3C3C",
      "input-background": "#313131",
      "input-foreground": "#CCCCCC",
      "input-border": "#3C3C3C",
      "input-placeholderForeground": "#989898",
      focusBorder: "#0078D4",
      "panel-border": "#2B2B2B",
      "sideBar-background": "#181818",
      "sideBarTitle-foreground": "#CCCCCC",
      "list-activeSelectionBackground": "#04395E",
      "list-activeSelectionForeground": "#FFFFFF",
      "list-hoverBackground": "#2A2D2E",
      "list-inactiveSelectionBackground": "#37373D",
      "list-focusOutline": "#0078D4",
      "editorGroup-border": "#FFFFFF17",
      "editorError-foreground": "#F14C4C",
      "editorWarning-foreground": "#CCA700",
      "testing-iconPassed": "#73C991",
      "textLink-foreground": "#4DAAFC",
      "menu-background": "#1F1F1F",
      "menu-foreground": "#CCCCCC",
      "menu-selectionBackground": "#0078D4",
      "menu-selectionForeground": "#FFFFFF",
      "widget-border": "#313131",
      "widget-shadow": "#0000005C",
      "editorWidget-background": "#202020",
      "editorWidget-foreground": "#CCCCCC",
      "editorSuggestWidget-background": "#202020",
      "editorHoverWidget-background": "#202020",
      "editorHoverWidget-foreground": "#CCCCCC",
      "progressBar-background": "#0078D4",
      "toolbar-hoverBackground": "#5A5D5E50",
      "editorCursor-foreground": "#AEAFAD",
      "editor-selectionBackground": "#264F78",
    },
  },
  "hc-dark": {
    classes: ["vscode-high-contrast"],
    colours: {
      ...FONT,
      foreground: "#FFFFFF",
      descriptionForeground: "#FFFFFFB3",
      errorForeground: "#F48771",
      "editor-background": "#000000",
      "editor-foreground": "#FFFFFF",
      "button-foreground": "#FFFFFF",
      "button-border": "#6FC3DF",
      "button-secondaryForeground": "#FFFFFF",
      "input-background": "#000000",
      "input-foreground": "#FFFFFF",
      "input-border": "#6FC3DF",
      "input-placeholderForeground": "#FFFFFFB3",
      focusBorder: "#F38518",
      contrastBorder: "#6FC3DF",
      contrastActiveBorder: "#F38518",
      "panel-border": "#6FC3DF",
      "sideBar-background": "#000000",
      "list-focusOutline": "#F38518",
      "editorGroup-border": "#6FC3DF",
      "editorError-foreground": "#F48771",
      "editorWarning-foreground": "#FFD370",
      "testing-iconPassed": "#73C991",
      "textLink-foreground": "#21A6FF",
      "menu-background": "#000000",
      "menu-foreground": "#FFFFFF",
      "menu-border": "#6FC3DF",
      "widget-border": "#6FC3DF",
      "editorWidget-background": "#0C141F",
      "editorWidget-foreground": "#FFFFFF",
      "editorSuggestWidget-background": "#0C141F",
      "editorHoverWidget-background": "#0C141F",
      "editorHoverWidget-foreground": "#FFFFFF",
      "progressBar-background": "#6FC3DF",
      "editorCursor-foreground": "#FFFFFF",
      "editor-selectionBackground": "#F3F518",
    },
  },
  "hc-light": {
    classes: ["vscode-high-contrast", "vscode-high-contrast-light"],
    colours: {
      ...FONT,
      foreground: "#292929",
      descriptionForeground: "#292929B3",
      errorForeground: "#B5200D",
      "editor-background": "#FFFFFF",
      "editor-foreground": "#292929",
      "button-background": "#0F4A85",
      "button-foreground": "#FFFFFF",
      "button-border": "#0F4A85",
      "button-secondaryBackground": "#FFFFFF",
      "button-secondaryForeground": "#292929",
      "input-background": "#FFFFFF",
      "input-foreground": "#292929",
      "input-border": "#0F4A85",
      "input-placeholderForeground": "#292929B3",
      focusBorder: "#006BBD",
      contrastBorder: "#0F4A85",
      contrastActiveBorder: "#006BBD",
      "panel-border": "#0F4A85",
      "sideBar-background": "#FFFFFF",
      "list-focusOutline": "#006BBD",
      "editorGroup-border": "#0F4A85",
      "editorError-foreground": "#B5200D",
      "editorWarning-foreground": "#895503",
      "testing-iconPassed": "#007100",
      "textLink-foreground": "#0F4A85",
      "menu-background": "#FFFFFF",
      "menu-foreground": "#292929",
      "menu-border": "#0F4A85",
      "widget-border": "#0F4A85",
      "editorWidget-background": "#FFFFFF",
      "editorWidget-foreground": "#292929",
      "editorSuggestWidget-background": "#FFFFFF",
      "editorHoverWidget-background": "#FFFFFF",
      "editorHoverWidget-foreground": "#292929",
      "progressBar-background": "#0F4A85",
      "editorCursor-foreground": "#0F4A85",
      "editor-selectionBackground": "#0F4A85",
    },
  },
};

/** Switches the page to `name` as VS Code does: new classes on the body, new variables on the root. */
export async function applyTheme(page: Page, name: ThemeName): Promise<void> {
  const theme = THEMES[name];
  await page.evaluate(({ classes, colours }) => {
    const root = document.documentElement;
    for (const p of [...root.style]) if (p.startsWith("--vscode-")) root.style.removeProperty(p);
    for (const [k, v] of Object.entries(colours)) root.style.setProperty(`--vscode-${k}`, v);
    document.body.classList.remove("vscode-light", "vscode-dark", "vscode-high-contrast", "vscode-high-contrast-light");
    document.body.classList.add(...classes);
  }, theme);
  // Let the page's observers run and the browser restyle (two frames: the observer schedules a frame of its own).
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}
