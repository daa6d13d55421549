/**
 * What the account tools share: the `connection` property, and how an
 * account's answer reaches the agent — as a TdlError of its kind whose text
 * went through the runtime's redaction, so that no key, SAS or token the
 * service or the SDK echoed can leave in a tool's output.
 */
import { describeError, kindOf, TdlError, UnavailableError, type ErrorKind } from "@core/errors";
import { redact } from "@runtime";
import type { JsonSchema } from "./tool";

/** The input property naming a connection (connections.ts). */
export const CONNECTION_PROPERTY: JsonSchema = {
  type: "string",
  maxLength: 100,
  minLength: 1,
  description:
    "A connection's name, never a connection string: 'emulator' (the embedded emulator), or a configured one (tdl mcp: an entry of tdl-connections.json or TDL_CONNECTION_<NAME>; VS Code: a connection of the table explorer, by default its active one).",
};

/** The table name property. */
export const TABLE_PROPERTY: JsonSchema = { type: "string", maxLength: 63, minLength: 1, description: "The table's name." };

/** Runs an account call; what it throws comes back as a TdlError of the same kind with its message redacted. */
export async function onAccount<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    const kind: ErrorKind = kindOf(e);
    const message = redact(`${what}: ${describeError(e)}`);
    if (kind === "internal") throw new UnavailableError(message);
    throw new TdlError(kind, message);
  }
}
