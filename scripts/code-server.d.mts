// Types of code-server.mjs for the TypeScript tests.
export const ROOT: string;
/** A fresh copy of examples/ inside the ignored .vscode-test/ (resolves the repository's node_modules); the caller deletes it. */
export function scratchExamples(): string;
export function ensureCodeServer(): string;
export function installExtension(extensionsDir: string): string;
/** `code-server --install-extension vsix` into `extensionsDir`; returns the installer's output, throws when it fails. */
export function installVsix(extensionsDir: string, vsix: string, userDataDir: string): string;
export function freePort(): Promise<number>;
export interface CodeServer {
  url: string;
  openUrl: string;
  pid: number;
  port: number;
  userDir: string;
  extensionsDir: string;
  stop(): Promise<void>;
}
export function startCodeServer(options?: {
  workspace?: string;
  port?: number;
  settings?: Record<string, unknown>;
  log?: "ignore" | "inherit";
  /** A packaged extension to install (with code-server's installer) instead of copying dist/. */
  vsix?: string;
  /** Unpacked extension folders to install beside it (copied as they are). */
  extraExtensions?: string[];
}): Promise<CodeServer>;
