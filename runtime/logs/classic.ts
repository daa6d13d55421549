/**
 * Classic Storage Analytics logs (`$logs/table/…`), version 1.0 — the only
 * version the Table service writes: one request per line, 30 fields
 * separated by `;`, the last without one. A field that may hold a quote, a
 * `;` or a line break (the request URL, the object key, the user agent…)
 * is quoted, its content HTML-encoded. The fields used here, by position:
 * request-start-time (1), operation-type (2), request-status (3),
 * http-status-code (4), end-to-end-latency-in-ms (5), service-type (10),
 * request-url (11), requested-object-key (12), request-id-header (13),
 * operation-count (14).
 */
import { storageRecord } from "./attribute";
import { LogRecord, Malformed, numberOf, statusOf } from "./record";
import { parseLogTime } from "./times";

/** Fields of a version 1.0 entry. */
export const CLASSIC_FIELDS = 30;

/** Whether a line starts as a Storage Analytics entry does (the detector's test). */
export function looksClassic(line: string): boolean {
  return /^\d\.\d;/.test(line);
}

/** The record of one `$logs` line; lines of other services (blob, queue) are records of class "other". */
export function classicRecord(line: string): LogRecord {
  const f = splitFields(line);
  if (f[0] !== "1.0" && f[0] !== "2.0") throw new Malformed(`version '${f[0].slice(0, 10)}' is not Storage Analytics logging 1.0`);
  if (f.length < CLASSIC_FIELDS) throw new Malformed(`${f.length} fields; a version ${f[0]} entry has ${CLASSIC_FIELDS}`);
  const time = parseLogTime(f[1]);
  if (time === undefined) throw new Malformed("its request-start-time is not a time");
  const operation = f[2];
  if (f[10] && f[10] !== "table") return { time, operation, op: "other", throttled: false, failed: false };
  return storageRecord({
    time,
    operation,
    statusText: f[3] || undefined,
    status: statusOf(f[4]),
    durationMs: numberOf(f[5]),
    uri: f[11] || undefined,
    objectKey: f[12] || undefined,
    correlationId: f[13] || undefined,
    operationIndex: numberOf(f[14]),
  });
}

/** The fields of a line: quoted ones unquoted and HTML-decoded. An unterminated quote runs to the end of the line. */
export function splitFields(line: string): string[] {
  const out: string[] = [];
  let at = 0;
  for (;;) {
    if (line.charCodeAt(at) === 34 /* " */) {
      let close = line.indexOf('"', at + 1);
      // A quote ends the field only when `;` or the end follows it.
      while (close >= 0 && close + 1 < line.length && line.charCodeAt(close + 1) !== 59) close = line.indexOf('"', close + 1);
      const end = close < 0 ? line.length : close;
      out.push(htmlDecode(line.slice(at + 1, end)));
      if (close < 0 || close + 1 >= line.length) return out;
      at = close + 2;
    } else {
      const semi = line.indexOf(";", at);
      if (semi < 0) {
        out.push(line.slice(at));
        return out;
      }
      out.push(line.slice(at, semi));
      at = semi + 1;
    }
  }
}

const ENTITIES: Record<string, string> = { quot: '"', amp: "&", lt: "<", gt: ">", apos: "'", semi: ";" };

function htmlDecode(s: string): string {
  if (!s.includes("&")) return s;
  return s.replace(/&(#x[0-9A-Fa-f]{1,6}|#\d{1,7}|[a-z]{2,5});/g, (m, e: string) => {
    if (e[0] !== "#") return ENTITIES[e] ?? m;
    const code = e[1] === "x" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : m;
  });
}
