/**
 * Where `tdl stress` points: an account whose connection string is in an
 * environment variable, or the local emulator (`UseDevelopmentStorage=true`).
 */
import { isLoopback, parseConnectionString, type Secret } from "@runtime";
import type { ConnectionInfo } from "@protocol";
import { UsageError } from "@core/errors";
import { inContext } from "../../failure";

/** Where `tdl stress` points: an account (from an environment variable) or an emulator. */
export interface StressTarget {
  connection: ConnectionInfo;
  secret: Secret;
  /** A loopback endpoint: no consent needed. */
  local: boolean;
  envVar?: string;
}

export function targetFromEnv(envVar: string): StressTarget {
  const value = process.env[envVar];
  if (!value) throw new UsageError(`the environment variable ${envVar} is not set`);
  try {
    const parsed = parseConnectionString(value);
    return {
      connection: { id: "cli", name: envVar, kind: "connection-string", endpoint: parsed.endpoint },
      secret: { connectionString: value },
      local: isLoopback(new URL(parsed.endpoint).hostname),
      envVar,
    };
  } catch (e) {
    throw inContext(`the connection string in ${envVar}`, e);
  }
}

/** `UseDevelopmentStorage=true`: the emulator at 127.0.0.1:10002 (`tdl emulator`, Azurite). */
export function localEmulator(): StressTarget {
  const parsed = parseConnectionString("UseDevelopmentStorage=true");
  return {
    connection: { id: "cli", name: "emulator", kind: "emulator", endpoint: parsed.endpoint },
    secret: { connectionString: "UseDevelopmentStorage=true" },
    local: true,
  };
}
