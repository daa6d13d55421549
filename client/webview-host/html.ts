/**
 * The panel's HTML with its Content Security Policy: scripts only with the
 * page's nonce, styles and fonts only from the extension (`cspSource`),
 * Monaco's worker from a Blob, and no network at all (`connect-src 'none'`:
 * the host does every request). Shared by the VS Code panel and the test
 * harness, so both run under the same policy.
 */
import { randomBytes } from "node:crypto";

export interface WebviewPage {
  cspSource: string;
  scriptUri: string;
  styleUri: string;
  title: string;
  /** Extra scripts that run before the bundle (the test harness's bridge); they get the nonce too. */
  preludeScripts?: string[];
}

export function nonce(): string {
  return randomBytes(16)
    .toString("base64")
    .replace(/[^A-Za-z0-9]/g, "");
}

export function contentSecurityPolicy(cspSource: string, scriptNonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${scriptNonce}'`,
    `style-src ${cspSource} 'unsafe-inline'`,
    `font-src ${cspSource}`,
    `img-src ${cspSource} data:`,
    "worker-src blob:",
    "connect-src 'none'",
  ].join("; ");
}

export function webviewHtml(page: WebviewPage): string {
  const n = nonce();
  const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(page.cspSource, n)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${esc(page.title)}</title>
<link rel="stylesheet" href="${esc(page.styleUri)}">
</head>
<body>
<div id="root"></div>
${(page.preludeScripts ?? []).map((s) => `<script nonce="${n}">${s}</script>`).join("\n")}
<script nonce="${n}" src="${esc(page.scriptUri)}"></script>
</body>
</html>`;
}
