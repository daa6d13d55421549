/**
 * A log file as a stream of text: its lines (LF or CRLF), or its raw
 * chunks for a JSON array, decoded as UTF-8 and gunzipped when the name
 * ends in `.gz`. Memory stays bounded by the chunk size and the longest
 * line: a line longer than MAX_LINE_CHARS is cut off, counted, and
 * reading resumes after it.
 */
import { createReadStream } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { createGunzip } from "node:zlib";
import type { Readable } from "node:stream";

/** No log line comes near this (a resource log record is a few KiB); a longer one is not read. */
export const MAX_LINE_CHARS = 8 * 1024 * 1024;
const CHUNK = 1 << 20;

/** The file's decoded text, chunk by chunk. */
export async function* chunks(file: string): AsyncGenerator<string> {
  let stream: Readable = createReadStream(file, { highWaterMark: CHUNK });
  if (file.endsWith(".gz")) stream = stream.pipe(createGunzip());
  const decoder = new StringDecoder("utf8");
  for await (const buf of stream) {
    const text = decoder.write(buf as Buffer);
    if (text) yield text;
  }
  const rest = decoder.end();
  if (rest) yield rest;
}

/** A line, or a line too long to read (`tooLong`, its text dropped). */
export type Line = { text: string; tooLong?: false } | { text: ""; tooLong: true };

/**
 * The lines of a stream of chunks, without their line ends, a chunk's
 * worth at a time (one await per chunk, not per line: a million lines
 * would otherwise cost a million promise hops); `first` is the start of
 * the text, already read.
 */
export async function* linesOf(source: AsyncIterable<string>, first = ""): AsyncGenerator<Line[]> {
  let carry = first;
  let dropping = false;
  const out: Line[] = [];
  const take = (chunk: string): void => {
    let at = 0;
    for (;;) {
      const nl = chunk.indexOf("\n", at);
      if (nl < 0) break;
      if (dropping) {
        dropping = false;
        out.push({ text: "", tooLong: true });
      } else {
        const line = carry ? carry + chunk.slice(at, nl) : chunk.slice(at, nl);
        out.push({ text: line.charCodeAt(line.length - 1) === 13 ? line.slice(0, -1) : line });
      }
      carry = "";
      at = nl + 1;
    }
    if (!dropping) carry += chunk.slice(at);
    if (carry.length > MAX_LINE_CHARS) {
      carry = "";
      dropping = true;
    }
  };
  if (carry) {
    const start = carry;
    carry = "";
    take(start);
    if (out.length) yield out.splice(0);
  }
  for await (const chunk of source) {
    take(chunk);
    if (out.length) yield out.splice(0);
  }
  if (dropping) yield [{ text: "", tooLong: true }];
  else if (carry) yield [{ text: carry.charCodeAt(carry.length - 1) === 13 ? carry.slice(0, -1) : carry }];
}
