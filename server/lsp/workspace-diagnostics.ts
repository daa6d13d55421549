/**
 * Diagnostics for the whole workspace, not only the open files, as ESLint's
 * and TypeScript's project-wide modes give them: every design file of the
 * workspace (the scan of designs.ts, within its budget of files and bytes)
 * gets its findings in the Problems panel when the server starts, and again
 * when it changes on disk (the client watches `**∕*.tdl` for the server) or
 * is closed (its saved text is what stays). An open design's diagnostics are
 * the scheduler's (its editor text); a design file that is deleted, or no
 * longer counts, has its diagnostics cleared.
 *
 * Publishing runs in slices of `SLICE` files, one per turn of the event
 * loop, so that requests and typing are answered between them; a newer pass
 * (options changed) stops an older one.
 */
import { Connection, Diagnostic } from "vscode-languageserver/node";
import { LineIndex } from "@core";
import { toDiagnostic } from "./convert";
import { DiskDesign, filePath, WorkspaceDesigns } from "./designs";
import { Guard } from "./guard";

/** Files published per turn of the event loop. */
const SLICE = 20;

/** Which files get diagnostics when they are not open (the `tableDesign.workspaceDiagnostics` setting). */
export type WorkspaceScope = "designs" | "off";

export class WorkspaceDiagnostics {
  /** Disk files whose diagnostics were published (by path), so that a deleted one is cleared. */
  private readonly published = new Map<string, string>();
  private pass = 0;
  /** Watched-file changes waiting for their slice (by URI: deleted or not), in the order they came. */
  private readonly queue = new Map<string, boolean>();
  private draining = false;
  private whenDrained: Array<() => void> = [];
  scope: WorkspaceScope = "designs";

  constructor(
    private readonly connection: Connection,
    private readonly designs: WorkspaceDesigns,
    /** Whether the document at this URI is open (its diagnostics are then the scheduler's). */
    private readonly isOpen: (uri: string) => boolean,
    private readonly guard: Guard,
  ) {}

  /** Reads the workspace's designs again (options or folders changed) and publishes each one that is not open. */
  refresh(): void {
    this.designs.invalidate();
    const pass = ++this.pass;
    if (this.scope === "off") {
      for (const uri of this.published.values()) if (!this.isOpen(uri)) this.send(uri, []);
      this.published.clear();
      return;
    }
    const files = [...this.designs.files()];
    const current = new Set(files.map(([file]) => file));
    for (const [file, uri] of this.published)
      if (!current.has(file)) {
        this.published.delete(file);
        if (!this.isOpen(uri)) this.send(uri, []);
      }
    let next = 0;
    const slice = () => {
      if (pass !== this.pass) return;
      for (const end = Math.min(files.length, next + SLICE); next < end; next++) this.publish(files[next][0], files[next][1]);
      if (next < files.length) setImmediate(this.guard.run("workspace diagnostics", slice));
    };
    slice();
  }

  /**
   * Changes the client's file watcher reports, taken in slices of `SLICE` files per turn of the event loop (one
   * notification may name 20,000 designs: the server keeps answering in between); a file named twice is taken once,
   * as its last change says. `done` runs once the queue is empty (the drift of open code is judged again then).
   */
  filesChanged(changes: ReadonlyArray<{ uri: string; deleted: boolean }>, done: () => void): void {
    for (const c of changes) {
      this.queue.delete(c.uri);
      this.queue.set(c.uri, c.deleted);
    }
    this.whenDrained.push(done);
    if (this.draining) return;
    this.draining = true;
    const slice = () => {
      try {
        let n = 0;
        for (const [uri, deleted] of this.queue) {
          if (n++ >= SLICE) break;
          this.queue.delete(uri);
          if (deleted) this.deleted(uri);
          else this.changed(uri);
        }
      } finally {
        // Whatever one file did, the rest of the queue is still taken.
        if (this.queue.size) setImmediate(this.guard.run("design files changed", slice));
        else {
          this.draining = false;
          this.designs.sayLeftOut();
          for (const f of this.whenDrained.splice(0)) f();
        }
      }
    };
    slice();
  }

  /** Changed files not taken yet (the watcher's queue): what a test waits on. */
  get pendingChanges(): number {
    return this.queue.size;
  }

  /** A design file was created or changed on disk: drift reads its new text whatever the scope; its diagnostics follow when the scope says so. */
  changed(uri: string): void {
    const file = filePath(uri);
    if (!file) return;
    const design = this.designs.reread(uri);
    if (this.scope === "off") return;
    if (design) this.publish(file, design);
    else this.forget(file, uri);
  }

  /** A design file was deleted. */
  deleted(uri: string): void {
    const file = filePath(uri);
    if (!file) return;
    this.designs.removed(uri);
    this.forget(file, uri);
  }

  /**
   * A document was closed: a design file of the workspace shows its saved
   * text's findings again (the editor's may have been unsaved); anything
   * else is cleared.
   */
  closed(uri: string): void {
    const file = filePath(uri);
    const design = file && this.scope !== "off" && this.designs.counts(uri) && file.endsWith(".tdl") ? this.designs.reread(uri) : undefined;
    if (file && design) this.publish(file, design);
    else {
      if (file) this.published.delete(file);
      this.send(uri, []);
    }
  }

  private publish(file: string, design: DiskDesign): void {
    this.published.set(file, design.uri);
    if (this.isOpen(design.uri)) return;
    const lines = new LineIndex(design.analysis.text);
    this.send(
      design.uri,
      design.analysis.findings.map((f) => toDiagnostic(lines, f)),
    );
  }

  private forget(file: string, uri: string): void {
    const was = this.published.get(file);
    this.published.delete(file);
    if (was && !this.isOpen(was)) this.send(was, []);
    else if (!this.isOpen(uri)) this.send(uri, []);
  }

  private send(uri: string, diagnostics: Diagnostic[]): void {
    void this.connection
      .sendDiagnostics({ uri, diagnostics })
      .catch((e: unknown) => this.guard.failed(`publishing the diagnostics of ${uri}`, e));
  }
}
