/**
 * Turns what the SDK and the network throw into messages a user can act
 * on: a wrong key, missing permissions, an unreachable endpoint, a
 * conflicting edit. Never includes a secret.
 */

export class AccountError extends Error {
  constructor(message: string, readonly code: string, readonly status?: number) {
    super(message);
  }
}

/** A write refused because someone else changed the entity first (HTTP 412). */
export class ConflictError extends AccountError {}

interface RestLike {
  statusCode?: number;
  code?: string;
  message?: string;
  name?: string;
  cause?: { code?: string };
  details?: { errorCode?: string };
  response?: { headers?: { get?(name: string): string | undefined } };
}

/** The service's error code: the x-ms-error-code header, the SDK's details, or the OData error body. */
function serviceCode(err: RestLike): string | undefined {
  return err.response?.headers?.get?.("x-ms-error-code") ?? err.details?.errorCode ?? /"code"\s*:\s*"(\w+)"/.exec(err.message ?? "")?.[1];
}

/**
 * `sharedKey`: the request was signed with an account key, which may do
 * anything — so a 403 means the key itself is wrong (Azurite answers
 * AuthorizationFailure where Azure answers AuthenticationFailed).
 */
export function describeError(e: unknown, endpoint: string, timeoutMs: number, sharedKey = false): AccountError {
  if (e instanceof AccountError) return e;
  const err = (e ?? {}) as RestLike;
  const status = err.statusCode;
  const code = serviceCode(err) ?? err.code ?? err.cause?.code ?? "";
  const host = safeHost(endpoint);
  if (err.name === "AbortError" || code === "ABORT_ERR" || code === "TimeoutError" || /timed? ?out/i.test(err.message ?? "")) {
    return new AccountError(`no answer from ${host} within ${Math.round(timeoutMs / 1000)} s: check the endpoint and your network`, "Timeout");
  }
  if (/CredentialUnavailable|AggregateAuthentication|AuthenticationRequired/.test(err.name ?? "")) {
    return new AccountError("no Microsoft Entra ID credential is available here: sign in with 'az login' (or set AZURE_CLIENT_ID, AZURE_TENANT_ID and AZURE_CLIENT_SECRET), or connect with a connection string or SAS token instead", "NoCredential");
  }
  if (code === "ECONNREFUSED") return new AccountError(`nothing answers at ${host} (connection refused): is the emulator or the endpoint up?`, code);
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return new AccountError(`the host ${host} cannot be found: check the account name or endpoint`, code);
  if (code === "ECONNRESET" || code === "EPIPE") return new AccountError(`the connection to ${host} was dropped`, code);
  if (status === 403 && sharedKey && code !== "AuthenticationFailed") {
    return new AccountError("the account key was rejected (the request signature does not match): copy the key again from the portal's Access keys", code || "AuthenticationFailed", status);
  }
  switch (code) {
    case "AuthenticationFailed":
      return new AccountError("the account key or SAS token was rejected (the request signature does not match): copy the key or token again", code, status);
    case "AuthorizationPermissionMismatch": case "AuthorizationFailure": case "AuthorizationResourceTypeMismatch": case "AuthorizationServiceMismatch":
      return new AccountError("missing permissions: the credential is valid but may not do this (check the SAS permissions or the role assignment, e.g. Storage Table Data Contributor)", code, status);
    case "TableNotFound": case "ResourceNotFound":
      return new AccountError(code === "TableNotFound" ? "the table does not exist (any more)" : "the entity does not exist (any more)", code, status);
    case "TableAlreadyExists": case "TableBeingDeleted":
      return new AccountError(code === "TableAlreadyExists" ? "a table of that name already exists" : "that table is being deleted; try again in a minute", code, status);
    case "EntityAlreadyExists":
      return new AccountError("an entity with this PartitionKey and RowKey already exists", code, status);
    case "UpdateConditionNotSatisfied":
      return new ConflictError("the entity was changed by someone else since you loaded it: nothing was overwritten; reload it to see the current values", code, status);
  }
  if (status === 403) return new AccountError("access denied: the key, token or role does not allow this", code || "Forbidden", status);
  const first = (err.message ?? String(e)).split("\n")[0].replace(/(sig|AccountKey)=[^&;\s]+/gi, "$1=…");
  return new AccountError(status ? `the service answered ${status}${code ? ` ${code}` : ""}: ${first}` : first, code || "Error", status);
}

function safeHost(endpoint: string): string {
  try {
    const u = new URL(endpoint);
    return u.host;
  } catch {
    return "the endpoint";
  }
}
