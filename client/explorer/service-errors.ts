/**
 * What went wrong, in the sentence a user needs. One table covers the Table
 * service's error codes (and the storage services' common ones): each gives
 * what happened and what to do, using what the explorer was doing (the
 * table, the entity's keys, the filter) to be specific — a RowKey with `#`
 * is named as such, not as "400 OutOfRangeInput". The service's own answer
 * goes into `details`, which the page shows behind a toggle. Everything
 * passes through `redact`, so no key or SAS reaches the page.
 */
import { AZURE_FORBIDDEN_KEY_TEXT, azureForbiddenKeyChar, isInvisible, showChar } from "@core";
import { AccountError, redact } from "@runtime";
import { type ErrorKind, TdlError } from "@core/errors";
import { formatCount } from "@core/text/words";

/** An error for the page: a sentence, the raw answer behind "details", and its kind (how the page shows it). */
export class PanelError extends TdlError {
  constructor(
    message: string,
    readonly details?: string,
    kind: Exclude<ErrorKind, "internal"> = "refused",
  ) {
    super(kind, redact(message));
    if (details !== undefined) this.details = redact(details);
  }
}

/** What the explorer was doing when the error came. */
export interface ErrorScene {
  table?: string;
  /** The entity being written. */
  row?: { partitionKey: string; rowKey: string };
  filter?: string;
}

type Explain = (scene: ErrorScene, answer: string) => string;

/** The key of `row` that holds a forbidden character, said as a user would want it. */
function badKeyChar(row: ErrorScene["row"]): string | undefined {
  if (!row) return undefined;
  for (const [name, value] of [
    ["PartitionKey", row.partitionKey],
    ["RowKey", row.rowKey],
  ] as const) {
    const found = [...value].find((ch) => azureForbiddenKeyChar(ch.charCodeAt(0)));
    if (!found) continue;
    // The forbidden characters a reader cannot see are the control characters: named as such.
    const shown = isInvisible(found.charCodeAt(0)) ? `the control character ${showChar(found)}` : showChar(found);
    return `the ${name} contains ${shown}, which keys may not hold (forbidden: ${AZURE_FORBIDDEN_KEY_TEXT}): change the ${name} and try again`;
  }
  return undefined;
}

/** Keys are at most 1 KiB, which is 512 characters as Azure counts them (UTF-16). */
function longKey(row: ErrorScene["row"]): string | undefined {
  if (!row) return undefined;
  for (const [name, value] of [
    ["PartitionKey", row.partitionKey],
    ["RowKey", row.rowKey],
  ] as const) {
    if (value.length > 512)
      return `the ${name} is ${formatCount(value.length)} characters long; keys may be at most 1 KiB (512 characters): shorten it and try again`;
  }
  return undefined;
}

const table = (s: ErrorScene) => (s.table ? `the table '${s.table}'` : "the table");
const entity = (s: ErrorScene) =>
  s.row ? `the entity ${JSON.stringify(s.row.partitionKey)} / ${JSON.stringify(s.row.rowKey)}` : "the entity";

/** The Table service's error codes, then the codes common to the storage services. */
const SERVICE_ERRORS: Record<string, Explain> = {
  OutOfRangeInput: (s, answer) =>
    badKeyChar(s.row) ??
    longKey(s.row) ??
    (s.row
      ? `a value is outside what the service accepts${parameter(answer)}: a DateTime before the year 1601, a number too large for its type, or a key over 1 KiB`
      : `a value in the request is outside what the service accepts${parameter(answer)}: check the filter's dates and numbers`),
  InvalidInput: (s) =>
    badKeyChar(s.row) ??
    (s.filter !== undefined
      ? "the service could not read this request: check the filter (quotes doubled inside strings, typed literals such as datetime'2026-01-01T00:00:00Z')"
      : "the service could not read this request: one of its values is not valid (check property names, types and keys)"),
  InvalidValueType: () => "a property value does not match its type (for example text in an Int32): fix the value or choose another type",
  PropertiesNeedValue: () => "every property needs a value: fill it in or remove the property",
  PropertyNameInvalid: () =>
    "a property name is not valid: names start with a letter or underscore and hold letters, digits and underscores",
  PropertyNameTooLong: () => "a property name is longer than 255 characters: shorten it",
  PropertyValueTooLarge: () => "a property value is larger than 64 KiB: shorten it, or keep large data in a blob and store its name here",
  DuplicatePropertiesSpecified: () => "a property appears twice in this entity: remove one of them",
  TooManyProperties: () => "the entity has more than 252 properties (255 with PartitionKey, RowKey and Timestamp): remove some",
  EntityTooLarge: () => "the entity is larger than 1 MiB: remove or shorten properties, or keep large data in a blob",
  EntityAlreadyExists: (s) => `${entity(s)} already exists: open it and edit it, or choose other keys`,
  EntityNotFound: (s) => `${entity(s)} does not exist (any more): someone may have deleted it; run the query again`,
  ResourceNotFound: (s) =>
    s.row
      ? `${entity(s)} does not exist (any more): someone may have deleted it; run the query again`
      : `${table(s)} or the entity does not exist (any more): refresh the table list`,
  TableNotFound: (s) => `${table(s)} does not exist (any more): someone may have deleted it; refresh the table list`,
  TableAlreadyExists: () => "a table of that name already exists (table names ignore case): open it, or choose another name",
  TableBeingDeleted: () => "a table of that name is being deleted: wait a minute, then try again",
  InvalidResourceName: () => "that is not a valid table name: 3 to 63 letters and digits, starting with a letter",
  UpdateConditionNotSatisfied: (s) =>
    `${entity(s)} was changed by someone else since you loaded it: nothing was overwritten; reload it to see the current values`,
  ConditionNotMet: (s) =>
    `${entity(s)} was changed by someone else since you loaded it: nothing was overwritten; reload it to see the current values`,
  InvalidDuplicateRow: () => "the batch names one entity twice: each entity may appear once in a transaction",
  CommandsInBatchActOnDifferentPartitions: () => "a transaction may only hold entities of one PartitionKey: split it by partition",
  InvalidQueryParameterValue: () => "the service refused the query's parameters: check the filter, $select names and the row limit",
  OutOfRangeQueryParameterValue: () => "a query parameter is out of range: a page holds at most 1,000 entities",
  RequestBodyTooLarge: () =>
    "the request is larger than the service accepts (4 MiB for a transaction): send fewer or smaller entities at a time",
  ServerBusy: () =>
    "the service is busy (throttling this partition or account): wait a moment and try again, or spread the load over more partitions",
  OperationTimedOut: () => "the service took too long to answer: try again; a query over a large range may need a narrower filter",
  InternalError: () => "the service failed on its side: try again in a moment",
  AccountIsDisabled: () => "the storage account is disabled: check it in the Azure portal",
  InvalidAuthenticationInfo: () =>
    "the credential is not in a form the service reads: connect again with a fresh connection string or SAS token",
  NotImplemented: () => "the service does not support this request (an emulator may lack a feature Azure has)",
  MethodNotAllowed: () => "the service does not allow this operation here",
  JsonFormatNotSupported: () => "the service does not accept this JSON format",
  InvalidUri: () => "the request's address is not valid: check the table name and the keys",
};

/** `(the RowKey)` when the service's answer names the parameter it refused. */
function parameter(answer: string): string {
  const named = /The '(\w{1,64})' parameter/.exec(answer.slice(0, 2000));
  return named ? ` (the ${named[1]})` : "";
}

/** What the service answered, without the account layer's prefix, its JSON error body read when it is one. */
function serviceAnswer(message: string): string {
  const raw = message.replace(/^the service answered \d{3}(?: \w+)?: /, "");
  try {
    const body = JSON.parse(raw) as { "odata.error"?: { code?: string; message?: { value?: string } } };
    const value = body["odata.error"]?.message?.value;
    if (typeof value === "string") return `${value}\n\n${raw}`;
  } catch {
    // Not JSON: the answer as it came.
  }
  return raw;
}

/**
 * `e` as a `PanelError` of its kind: a known service code in a sentence
 * for this scene (the service's answer in the details), another expected
 * failure as it was. Anything else is a bug: returned as it is, so that the
 * host logs its stack and the page says where it is.
 */
export function explain(e: unknown, scene: ErrorScene = {}): PanelError | Error {
  if (e instanceof PanelError) return e;
  if (e instanceof AccountError) {
    const answer = serviceAnswer(e.message);
    const head = `${e.status ? `HTTP ${e.status} ` : ""}${e.code}`;
    // A 403 is the account layer's to explain: it knows the credential (a key, which SAS grant is missing).
    const known = e.status !== 403 && Object.hasOwn(SERVICE_ERRORS, e.code) ? SERVICE_ERRORS[e.code] : undefined;
    if (known) return new PanelError(known(scene, answer), `${head}\n${answer}`, e.kind);
    if (e.status && /^the service answered/.test(e.message)) {
      return new PanelError(`the service refused the request (${head}): see the details for its answer`, `${head}\n${answer}`, e.kind);
    }
    // The account layer's own sentences (network, credentials, SAS) are already what the user needs.
    return new PanelError(e.message, e.code && e.code !== "Error" ? head : undefined, e.kind);
  }
  if (e instanceof TdlError) return new PanelError(e.message, e.detail, e.kind);
  // An abort is the user's own doing: said as a refusal, not as a bug.
  if (e instanceof Error && e.name === "AbortError") return new PanelError(e.message || "cancelled");
  return e instanceof Error ? e : new Error(String(e));
}

/** The codes the table explains (for tests that check every code has a sentence). */
export const EXPLAINED_CODES: readonly string[] = Object.keys(SERVICE_ERRORS);
