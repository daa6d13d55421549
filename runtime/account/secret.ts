/**
 * What a connection keeps apart from its description: the credential. It
 * lives in VS Code's SecretStorage (or the environment, for the CLI) and
 * never crosses the page protocol.
 */

/** The secret part of a connection, kept in SecretStorage (or the environment for the CLI). */
export interface Secret {
  connectionString?: string;
  sasToken?: string;
}
