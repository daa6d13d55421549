/**
 * Error answers in the shape Azure Table Storage gives them: the status, an
 * `x-ms-error-code` header, and a body in the format the client asked for —
 * the JSON `odata.error` object when its Accept header names JSON, the OData
 * XML `<error>` otherwise — whose message ends with the request id and time.
 * Also the `202 Accepted` multipart answer of a failed entity group
 * transaction, which carries the failing operation's index and error inside.
 */
import { randomUUID } from "node:crypto";

/** A complete HTTP answer, ready to write. */
export interface Answer {
  status: number;
  headers: Record<string, string | number>;
  body: string;
}

/** What the service says about one failure: its status, error code and first message line. */
export interface ServiceError {
  status: number;
  code: string;
  message: string;
}

/** The version the layer speaks when the client names none (the SDK's own). */
const DEFAULT_VERSION = "2019-02-02";

const REASONS: Record<number, string> = {
  400: "Bad Request",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  408: "Request Timeout",
  409: "Conflict",
  411: "Length Required",
  412: "Precondition Failed",
  413: "Request Entity Too Large",
  415: "Unsupported Media Type",
  500: "Internal Server Error",
  501: "Not Implemented",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/** The reason phrase of a status line (`Bad Request`). */
export function reason(status: number): string {
  return REASONS[status] ?? (status >= 500 ? "Server Error" : "Client Error");
}

/** Azure's timestamp: ISO 8601 with seven fractional digits. */
function serviceTime(): string {
  return new Date().toISOString().replace("Z", "0000Z");
}

function escapeXml(s: string): string {
  return s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The odata level a JSON Accept header asks for (`minimalmetadata` when it names none). */
function odataLevel(accept: string): string {
  const m = /odata=(nometadata|minimalmetadata|fullmetadata)/i.exec(accept);
  return m ? m[1].toLowerCase() : "minimalmetadata";
}

/** The single-line JSON `odata.error` body (a batch sub-response must hold it on one line). */
export function odataErrorJson(code: string, message: string, requestId: string): string {
  return JSON.stringify({
    "odata.error": { code, message: { lang: "en-US", value: `${message}\nRequestId:${requestId}\nTime:${serviceTime()}` } },
  });
}

/**
 * The answer Azure gives for `e`, in JSON when `accept` names JSON and in
 * OData XML otherwise. `version` is the request's `x-ms-version`, echoed.
 */
export function errorAnswer(e: ServiceError, accept = "", version?: string): Answer {
  const requestId = randomUUID();
  const json = /json/i.test(accept);
  const body = json
    ? odataErrorJson(e.code, e.message, requestId)
    : `<?xml version="1.0" encoding="utf-8"?><error xmlns="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata"><code>${escapeXml(e.code)}</code>` +
      `<message xml:lang="en-US">${escapeXml(`${e.message}\nRequestId:${requestId}\nTime:${serviceTime()}`)}</message></error>`;
  return {
    status: e.status,
    headers: {
      "content-type": json ? `application/json;odata=${odataLevel(accept)};streaming=true;charset=utf-8` : "application/xml;charset=utf-8",
      "x-ms-error-code": e.code,
      "x-ms-request-id": requestId,
      "x-ms-version": safeVersion(version),
      "x-content-type-options": "nosniff",
      "cache-control": "no-cache",
      "content-length": Buffer.byteLength(body),
    },
    body,
  };
}

/** An echoed version must be a plain header value: anything odd is replaced by the default. */
function safeVersion(version: string | undefined): string {
  return version && /^[0-9A-Za-z-]{1,32}$/.test(version) ? version : DEFAULT_VERSION;
}

/** Where an entity group transaction failed, and why. */
export interface BatchFailure extends ServiceError {
  /** The failing operation's position in the change set, from 0. */
  index: number;
  /** The operation's own `Content-ID`, echoed when it sent one. */
  contentId?: string;
}

/**
 * The answer to a failed entity group transaction, as Azure gives it:
 * `202 Accepted`, a multipart/mixed batch response holding one change set
 * response with the failing operation's status line and an `odata.error`
 * body whose message starts with its index (`"1:All commands in a batch…"`).
 * The SDKs read the index and code from there.
 */
export function batchFailureAnswer(f: BatchFailure, version?: string): Answer {
  const requestId = randomUUID();
  const batch = `batchresponse_${randomUUID()}`;
  const changeset = `changesetresponse_${randomUUID()}`;
  const contentId = f.contentId && /^[\x21-\x7e]{1,64}$/.test(f.contentId) ? f.contentId : undefined;
  const body = [
    `--${batch}`,
    `Content-Type: multipart/mixed; boundary=${changeset}`,
    "",
    `--${changeset}`,
    "Content-Type: application/http",
    "Content-Transfer-Encoding: binary",
    "",
    `HTTP/1.1 ${f.status} ${reason(f.status)}`,
    ...(contentId ? [`Content-ID: ${contentId}`] : []),
    "X-Content-Type-Options: nosniff",
    "Cache-Control: no-cache",
    "DataServiceVersion: 3.0;",
    "Content-Type: application/json;odata=minimalmetadata;streaming=true;charset=utf-8",
    "",
    odataErrorJson(f.code, `${f.index}:${f.message}`, requestId),
    `--${changeset}--`,
    `--${batch}--`,
    "",
  ].join("\r\n");
  return {
    status: 202,
    headers: {
      "content-type": `multipart/mixed; boundary=${batch}`,
      "x-ms-request-id": requestId,
      "x-ms-version": safeVersion(version),
      "x-content-type-options": "nosniff",
      "cache-control": "no-cache",
      "content-length": Buffer.byteLength(body),
    },
    body,
  };
}

/**
 * The code and message Azure uses for a bare status: the layer dresses an
 * error Azurite answers without a body (a 400 or a 500 with nothing in it)
 * in the service's shape, so that every error a client sees names its code.
 */
export function codeForStatus(status: number): ServiceError {
  switch (status) {
    case 400:
      return { status, code: "InvalidInput", message: "One of the request inputs is not valid." };
    case 403:
      return {
        status,
        code: "AuthenticationFailed",
        message:
          "Server failed to authenticate the request. Make sure the value of the Authorization header is formed correctly including the signature.",
      };
    case 404:
      return { status, code: "ResourceNotFound", message: "The specified resource does not exist." };
    case 405:
      return { status, code: "UnsupportedHttpVerb", message: "The resource doesn't support the specified HTTP verb." };
    case 409:
      return { status, code: "ResourceAlreadyExists", message: "The specified resource already exists." };
    case 412:
      return { status, code: "UpdateConditionNotSatisfied", message: "The update condition specified in the request was not satisfied." };
    case 413:
      return { status, code: "RequestBodyTooLarge", message: "The size of the request body exceeds the maximum size permitted." };
    case 415:
      return { status, code: "MediaTypeNotSupported", message: "None of the provided media types are supported" };
    case 501:
      return { status, code: "NotImplemented", message: "The requested operation is not implemented on the specified resource." };
    case 503:
      return { status, code: "ServerBusy", message: "The server is currently unable to receive requests. Please retry your request." };
  }
  return status >= 500
    ? { status, code: "InternalError", message: "The server encountered an internal error. Please retry the request." }
    : { status, code: "InvalidInput", message: "One of the request inputs is not valid." };
}
