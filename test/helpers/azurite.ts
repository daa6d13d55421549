/**
 * A real Azurite for the integration tests, started by the test run on a
 * free loopback port and stopped by its PID.
 */
import { after, before } from "node:test";
import { EmbeddedEmulator } from "@runtime/emulator/azurite";
import { AccountSession } from "@runtime/account/session";
import { ConnectionInfo } from "@protocol/entities";

export async function startAzurite(): Promise<EmbeddedEmulator> {
  return EmbeddedEmulator.start();
}

export function emulatorConnection(emu: EmbeddedEmulator): ConnectionInfo {
  return { id: "emulator", name: "Emulator", kind: "emulator", endpoint: emu.endpoint };
}

export function session(emu: EmbeddedEmulator, timeoutMs?: number): AccountSession {
  return new AccountSession(emulatorConnection(emu), { connectionString: emu.connectionString }, { timeoutMs });
}

let counter = 0;
export function tableName(prefix = "t"): string {
  return `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}`;
}

/** A real Azurite for one test file: started before its tests, stopped after them, with a session on it. */
export function azuriteForFile(): { emulator: EmbeddedEmulator; session: AccountSession } {
  const it = {} as { emulator: EmbeddedEmulator; session: AccountSession };
  before(async () => {
    it.emulator = await startAzurite();
    it.session = session(it.emulator);
  });
  after(() => it.emulator?.stop());
  return it;
}
