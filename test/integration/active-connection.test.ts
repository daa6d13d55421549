/**
 * The explorer's host shares its active connection with the extension's
 * commands (`PageServices.active`, client/pages/host-page.ts): while its
 * panel is open, the stress, infer and live-data commands work on the
 * connection the user picked there; once the panel closes they see none
 * (and fall back to the embedded emulator). The page's command, with
 * nothing stored, connects the open panel to the emulator. Against a real
 * Azurite, with the real controller.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import explorer from "@client/pages/explorer";
import type { PageServices } from "@client/pages/host-page";
import { servePage } from "../helpers/page-services";
import { MemoryStore, ScriptedUi } from "../helpers/memory-store";
import { azuriteForFile } from "../helpers/azurite";

const azurite = azuriteForFile();

function services(): Partial<PageServices> & { active: PageServices["active"]; store: MemoryStore; ui: ScriptedUi } {
  const emu = azurite.emulator;
  return { store: new MemoryStore(), ui: new ScriptedUi({ endpoint: emu.endpoint, connectionString: emu.connectionString }), active: {} };
}

test("the commands see the connection the open explorer connected to, and none once its panel closes", async () => {
  const s = services();
  const { served } = servePage(explorer, s, undefined);
  /** The session the stress, infer and live-data commands would work on. */
  const session = () => s.active.connection?.current;
  assert.equal(session(), undefined, "nothing stored and no emulator running: no session yet");
  // The page's command with nothing stored: the open panel connects to the emulator.
  await explorer.command!(s as PageServices, () => undefined);
  assert.equal(session()?.connection.id, "emulator");
  assert.deepEqual(
    s.store.list().map((c) => c.id),
    ["emulator"],
  );
  served.dispose?.();
  assert.equal(s.active.connection, undefined, "a closed panel leaves the commands no session");
});

test("a panel closed after a newer one opened leaves the newer one's connection to the commands", async () => {
  const s = services();
  const first = servePage(explorer, s, undefined).served;
  const firstConnection = s.active.connection;
  const second = servePage(explorer, s, undefined).served;
  const secondConnection = s.active.connection;
  assert.notEqual(secondConnection, firstConnection);
  first.dispose?.();
  assert.equal(s.active.connection, secondConnection);
  second.dispose?.();
  assert.equal(s.active.connection, undefined);
});
