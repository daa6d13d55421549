/**
 * Turns what the SDK and the network throw into messages a user can act
 * on: a wrong key, an expired SAS, a missing permission, an unreachable
 * endpoint, a conflicting edit. Every message passes through `redact`, so no
 * secret the SDK echoes (a request URL with its SAS) reaches a user or a log.
 */
import { InputError, TdlError } from "@core/errors";
import { redact } from "./redact";
import { parseSas, SasInfo, sasTimeProblem } from "./sas";
import { missingGrant, operationOf, TableOperation } from "./sas-grants";

/**
 * What the service (or the way to it) answered, in words. Its kind follows
 * the status: no answer or a 5xx is `unavailable`, a 400 is `input`, any
 * other refusal (401, 403, 404, 409, 412…) is `refused`.
 */
export class AccountError extends TdlError {
  constructor(
    message: string,
    readonly code: string,
    readonly status?: number,
  ) {
    super(status === undefined || status >= 500 ? "unavailable" : status === 400 ? "input" : "refused", redact(message));
  }
}

/** A connection string or endpoint that cannot be read; the message names the setting and its position, never its value. */
export class ConnectionStringError extends InputError {
  constructor(message: string) {
    super(redact(message));
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
  request?: { url?: string; method?: string; headers?: { get?(name: string): string | undefined } };
  response?: { headers?: { get?(name: string): string | undefined } };
}

/** What the caller knows about the failed call; whatever it leaves out is read from the SDK's error. */
export interface ErrorContext {
  /** The request was signed with an account key (which may do anything: a 403 means a wrong key). */
  sharedKey?: boolean;
  /** The SAS the request carried; by default read from the failed request's URL. */
  sas?: SasInfo;
  /** What was being done; by default read from the failed request's method and path. */
  operation?: TableOperation;
  /** The time to judge a SAS's validity at (tests pin it). */
  now?: Date;
}

/** The service's error code: the x-ms-error-code header, the SDK's details, or the error body (JSON or XML). */
function serviceCode(err: RestLike): string | undefined {
  const message = err.message ?? "";
  return (
    err.response?.headers?.get?.("x-ms-error-code") ??
    err.details?.errorCode ??
    /"code"\s*:\s*"(\w+)"/.exec(message)?.[1] ??
    /<Code>(\w+)<\/Code>/.exec(message)?.[1]
  );
}

const MISMATCH = new Set([
  "AuthorizationPermissionMismatch",
  "AuthorizationResourceTypeMismatch",
  "AuthorizationServiceMismatch",
  "AuthorizationFailure",
]);

/**
 * Maps an error of the SDK or the network to an AccountError with a message
 * a user can act on. `context` may be a boolean (the older `sharedKey` flag).
 */
export function toAccountError(e: unknown, endpoint: string, timeoutMs: number, context: boolean | ErrorContext = {}): AccountError {
  if (e instanceof AccountError) return e;
  const ctx: ErrorContext = typeof context === "boolean" ? { sharedKey: context } : context;
  const err = (e ?? {}) as RestLike;
  const status = err.statusCode;
  const code = serviceCode(err) ?? err.code ?? err.cause?.code ?? "";
  const host = safeHost(endpoint);
  if (err.name === "AbortError" || code === "ABORT_ERR" || code === "TimeoutError" || /timed? ?out/i.test(err.message ?? "")) {
    return new AccountError(
      `no answer from ${host} within ${Math.round(timeoutMs / 1000)} s: check the endpoint and your network`,
      "Timeout",
    );
  }
  if (/CredentialUnavailable|AggregateAuthentication|AuthenticationRequired/.test(err.name ?? "")) {
    return new AccountError(
      "no Microsoft Entra ID credential is available here: sign in with 'az login' (or set AZURE_CLIENT_ID, AZURE_TENANT_ID and AZURE_CLIENT_SECRET), or connect with a connection string or SAS token instead",
      "NoCredential",
    );
  }
  if (code === "ECONNREFUSED")
    return new AccountError(`nothing answers at ${host} (connection refused): is the emulator or the endpoint up?`, code);
  if (code === "ENOTFOUND" || code === "EAI_AGAIN")
    return new AccountError(`the host ${host} cannot be found: check the account name or endpoint`, code);
  if (code === "ECONNRESET" || code === "EPIPE") return new AccountError(`the connection to ${host} was dropped`, code);
  if (status === 403 && ctx.sharedKey && code !== "AuthenticationFailed") {
    return new AccountError(
      "the account key was rejected (the request signature does not match): copy the key again from the portal's Access keys",
      code || "AuthenticationFailed",
      status,
    );
  }
  const sas = ctx.sas ?? sasOfRequest(err);
  if (status === 403 && sas) return sasRefusal(err, code, sas, ctx);
  switch (code) {
    case "AuthenticationFailed":
      return new AccountError(
        "the account key or SAS token was rejected (the request signature does not match): copy the key or token again",
        code,
        status,
      );
    case "AuthorizationPermissionMismatch":
    case "AuthorizationResourceTypeMismatch":
    case "AuthorizationServiceMismatch":
      return new AccountError(
        "missing permissions: the credential is valid but may not do this (check the SAS permissions or the role assignment, e.g. Storage Table Data Contributor)",
        code,
        status,
      );
    case "AuthorizationFailure":
      return new AccountError(
        "the service refused this request (AuthorizationFailure): the credential may not do this here; check the role assignment, the SAS token's validity, and the account's firewall and network rules",
        code,
        status,
      );
    case "TableNotFound":
    case "ResourceNotFound":
      return new AccountError(
        code === "TableNotFound" ? "the table does not exist (any more)" : "the entity does not exist (any more)",
        code,
        status,
      );
    case "TableAlreadyExists":
    case "TableBeingDeleted":
      return new AccountError(
        code === "TableAlreadyExists" ? "a table of that name already exists" : "that table is being deleted; try again in a minute",
        code,
        status,
      );
    case "EntityAlreadyExists":
      return new AccountError("an entity with this PartitionKey and RowKey already exists", code, status);
    case "UpdateConditionNotSatisfied":
      return new ConflictError(
        "the entity was changed by someone else since you loaded it: nothing was overwritten; reload it to see the current values",
        code,
        status,
      );
  }
  if (status === 403) return new AccountError("access denied: the key, token or role does not allow this", code || "Forbidden", status);
  const first = (err.message ?? String(e)).split("\n")[0];
  return new AccountError(status ? `the service answered ${status}${code ? ` ${code}` : ""}: ${first}` : first, code || "Error", status);
}

/** A 403 to a SAS-signed request: an expired or not-yet-valid token, a missing grant, or a bad signature. */
function sasRefusal(err: RestLike, code: string, sas: SasInfo, ctx: ErrorContext): AccountError {
  const time = sasTimeProblem(sas, ctx.now ?? new Date());
  if (time) return new AccountError(time.message, time.code, 403);
  if (/time frame|expired/i.test(err.message ?? "")) {
    return new AccountError(
      "the SAS token is not valid at the service's current time: it expired or has not started yet (check its se and st, and this computer's clock); create a new one",
      "SasExpired",
      403,
    );
  }
  const op = ctx.operation ?? operationOf(err.request?.method, err.request?.url, !!err.request?.headers?.get?.("if-match"));
  const missing = op && MISMATCH.has(code) ? missingGrant(sas, op) : undefined;
  if (missing) return new AccountError(missing, code, 403);
  if (code === "AuthenticationFailed" || code === "AuthorizationFailure") {
    return new AccountError(
      "the SAS token was rejected: its signature does not match (copy the whole token again), or its IP range or protocol (sip, spr) does not allow this request",
      code,
      403,
    );
  }
  return new AccountError(
    "missing permissions: the SAS token is valid but may not do this (check its permissions sp, resource types srt and services ss)",
    code || "Forbidden",
    403,
  );
}

/** The SAS carried by the failed request's URL, if any (the SAS credential puts it in the query). */
function sasOfRequest(err: RestLike): SasInfo | undefined {
  const url = err.request?.url;
  if (!url) return undefined;
  const q = url.indexOf("?");
  return q < 0 ? undefined : parseSas(url.slice(q + 1));
}

function safeHost(endpoint: string): string {
  try {
    const u = new URL(endpoint);
    return u.host;
  } catch {
    return "the endpoint";
  }
}
