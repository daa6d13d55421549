/**
 * The connections the account tools may name. A tool's input names a
 * connection, never a secret: the secret stays where the user put it.
 *
 *   - `emulator`: the embedded emulator (Azurite in memory with Azure
 *     fidelity), started on first use and stopped with the server;
 *   - the entries of the connections file (`tdl-connections.json` at the
 *     workspace's root, or `tdl mcp --connections FILE`): `{"<name>":
 *     {"connectionStringEnv": "VAR"}}` (the connection string is in the
 *     variable) or `{"<name>": {"accountUrl": "https://…"}}` (signed in with
 *     Microsoft Entra ID, or a SAS URL);
 *   - each environment variable `TDL_CONNECTION_<NAME>` holding a
 *     connection string: the connection `<name>` (lower case).
 *
 * Messages name the connection and its endpoint host, never the secret.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { InputError, UsageError } from "@core/errors";
import { AccountSession, FidelityEmulator, interpretConnectionInput, isLoopback, type Secret } from "@runtime";
import type { ThrottleControl } from "@runtime/emulator/fidelity-emulator";
import type { ConnectionInfo } from "@protocol";

/** A session on a named connection, and whether it is an emulator. */
export interface OpenConnection {
  readonly name: string;
  readonly session: AccountSession;
  readonly connection: ConnectionInfo;
  readonly secret: Secret;
  /** The embedded emulator: the one connection stress_test loads without --allow-account-stress. */
  readonly embedded: boolean;
  /** The embedded emulator's throttling, which a stress test scales to this machine. */
  readonly throttle?: ThrottleControl;
  /** A loopback endpoint (an emulator). */
  readonly local: boolean;
}

export interface Connections {
  /** The names a tool may give, sorted. */
  names(): string[];
  /** A session on the connection `name` (none: the front end's default, if it has one); an unknown name is an InputError listing the known ones. */
  open(name: string | undefined): Promise<OpenConnection>;
  /** Stops what was started (the embedded emulator). */
  close(): Promise<void>;
}

/** The environment variables that name connections by themselves. */
const ENV_PREFIX = "TDL_CONNECTION_";
/** The connections file looked for at the workspace's root. */
export const CONNECTIONS_FILE = "tdl-connections.json";
const EMBEDDED = "emulator";

type Entry = { connectionStringEnv: string } | { accountUrl: string };

/** The connections of a workspace: its connections file (or `file`), the environment's `TDL_CONNECTION_*`, and the embedded emulator. */
export function workspaceConnections(workspace: string, file?: string, env: NodeJS.ProcessEnv = process.env): Connections {
  const entries = new Map<string, Entry>();
  const configFile = file ?? path.join(workspace, CONNECTIONS_FILE);
  if (file !== undefined || fs.existsSync(configFile)) for (const [name, e] of Object.entries(readConfig(configFile))) entries.set(name, e);
  for (const key of Object.keys(env).sort())
    if (key.startsWith(ENV_PREFIX) && key.length > ENV_PREFIX.length)
      entries.set(key.slice(ENV_PREFIX.length).toLowerCase(), { connectionStringEnv: key });
  let emulator: Promise<FidelityEmulator> | undefined;
  const names = () => [EMBEDDED, ...[...entries.keys()].filter((n) => n !== EMBEDDED)].sort();
  return {
    names,
    async open(name) {
      if (name === undefined) throw new UsageError(`name a connection (connections: ${names().join(", ")})`);
      if (name === EMBEDDED) {
        emulator ??= FidelityEmulator.start({});
        const emu = await emulator;
        const connection: ConnectionInfo = { id: EMBEDDED, name: EMBEDDED, kind: "emulator", endpoint: emu.endpoint };
        const secret = { connectionString: emu.connectionString };
        return { name, session: new AccountSession(connection, secret), connection, secret, embedded: true, throttle: emu, local: true };
      }
      const entry = entries.get(name);
      if (!entry) throw new InputError(`no connection named ${JSON.stringify(name.slice(0, 100))} (connections: ${names().join(", ")})`);
      const { connection, secret } = resolve(name, entry, env);
      const local = isLoopback(new URL(connection.endpoint).hostname);
      return { name, session: new AccountSession(connection, secret), connection, secret, embedded: false, local };
    },
    async close() {
      const started = emulator;
      emulator = undefined;
      if (started) await (await started.catch(() => undefined))?.stop();
    },
  };
}

function readConfig(file: string): Record<string, Entry> {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (e) {
    throw new UsageError(`cannot read the connections file ${file}: ${(e as Error).message.split("\n")[0]}`);
  }
  const out: Record<string, Entry> = {};
  const bad = (name: string) =>
    new UsageError(`${file}: the connection ${JSON.stringify(name)} needs {"connectionStringEnv": "VAR"} or {"accountUrl": "https://…"}`);
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    throw new UsageError(`${file} must hold an object of named connections`);
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    const v = value as Record<string, unknown> | null;
    if (typeof v?.connectionStringEnv === "string") out[name] = { connectionStringEnv: v.connectionStringEnv };
    else if (typeof v?.accountUrl === "string") out[name] = { accountUrl: v.accountUrl };
    else throw bad(name);
  }
  return out;
}

/** The connection and its secret; what cannot be used says so without quoting the value. */
function resolve(name: string, entry: Entry, env: NodeJS.ProcessEnv): { connection: ConnectionInfo; secret: Secret } {
  const from = "connectionStringEnv" in entry ? `the environment variable ${entry.connectionStringEnv}` : `the account URL of ${name}`;
  const value = "connectionStringEnv" in entry ? env[entry.connectionStringEnv] : entry.accountUrl;
  if (!value) throw new InputError(`the connection ${name}: ${from} is not set`);
  try {
    const input = interpretConnectionInput(value, "entra-id");
    return { connection: { id: `agent:${name}`, name, kind: input.kind, endpoint: input.endpoint }, secret: input.secret };
  } catch {
    throw new InputError(`the connection ${name}: ${from} does not hold a connection string or table endpoint URL`);
  }
}
