/**
 * How a `tdl` command names an account: `--connection-string-env VAR` (the
 * connection string stays in the environment, never on the command line) or
 * `--account-url URL` (with a SAS, or signed in with Microsoft Entra ID).
 * One declaration of the two options and one way to read them, for every
 * command that talks to a table.
 */
import { InputError, UsageError } from "@core/errors";
import { AccountSession, interpretConnectionInput, type Secret, type SessionOptions } from "@runtime";
import type { ConnectionInfo } from "@protocol";
import { text } from "./options";
import { inContext } from "./failure";

/** The two ways to name an account, for a command's `options` (and `oneOf`). */
export const ACCOUNT_OPTIONS = {
  "connection-string-env": text("VAR", "the environment variable that holds the account's connection string"),
  "account-url": text("URL", "the account's table endpoint, with a SAS or signed in with Microsoft Entra ID"),
};

/** `oneOf` for a command that takes exactly one account. */
export const ONE_ACCOUNT = {
  options: ["connection-string-env", "account-url"] as ("connection-string-env" | "account-url")[],
  what: "source",
};

/** The connection from `--connection-string-env VAR` or `--account-url URL`; `prefix` names another pair (`to-`). */
export function accountOf(
  envVar: string | undefined,
  url: string | undefined,
  prefix = "",
): { connection: ConnectionInfo; secret: Secret } {
  const text = envVar !== undefined ? process.env[envVar] : url;
  if (!text)
    throw new UsageError(envVar !== undefined ? `the environment variable ${envVar} is not set` : `--${prefix}account-url needs a URL`);
  // A URL with a SAS reads with it; a URL without one signs in with Microsoft Entra ID.
  let input: ReturnType<typeof interpretConnectionInput>;
  try {
    input = interpretConnectionInput(text, "entra-id");
  } catch (e) {
    throw inContext(envVar !== undefined ? `the connection string in ${envVar}` : `--${prefix}account-url`, e);
  }
  if (envVar !== undefined && input.kind !== "connection-string")
    throw new InputError(`${envVar} holds a URL: pass it with --${prefix}account-url`);
  return { connection: { id: "cli", name: envVar ?? "account", kind: input.kind, endpoint: input.endpoint }, secret: input.secret };
}

/** A session on the account the options name. */
/** A bulk job's session: the SDK does not retry, the job's throttle-aware path does (and paces itself on what it hears). */
export const JOB_SESSION: SessionOptions = { sdkRetries: 0 };

export function sessionOf(options: { "connection-string-env"?: string; "account-url"?: string }, o: SessionOptions = {}): AccountSession {
  const { connection, secret } = accountOf(options["connection-string-env"], options["account-url"]);
  return new AccountSession(connection, secret, o);
}
