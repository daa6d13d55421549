/**
 * An export's checkpoints while its readers run: every `save()` settles only
 * once the manifest on disk holds what the caller changed before it, however
 * the calls interleave with the writes.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { loadManifest, Manifest, MANIFEST_VERSION, ManifestSaver } from "@runtime/bulk/manifest";

test("each save reaches the disk with the changes made before it, while other saves are on their way", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "tdl-saver-"));
  try {
    const manifest: Manifest = {
      version: MANIFEST_VERSION,
      table: "T",
      source: "host",
      started: "now",
      ranges: [],
      count: 0,
      checksum: "0",
    };
    const saver = new ManifestSaver(dir, manifest);
    const saves: Array<Promise<number>> = [];
    for (let i = 1; i <= 50; i++) {
      manifest.count = i;
      // Each caller checks, once its save settled, that the disk holds at least its change.
      saves.push(saver.save().then(() => loadManifest(dir)!.count));
      if (i % 7 === 0) await new Promise((r) => setTimeout(r, 1));
    }
    const seen = await Promise.all(saves);
    seen.forEach((count, i) => assert.ok(count >= i + 1, `save ${i + 1} settled with ${count} on disk`));
    assert.equal(JSON.parse(readFileSync(path.join(dir, "manifest.json"), "utf8")).count, 50);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
