/**
 * Property tests of "secrets never shown" (issue 10, part 7): for random
 * keys and SAS signatures and random malformations of the connection strings
 * and URLs that carry them, nothing the account layer shows — an error
 * message, an endpoint, an account name — holds any 8-character piece of a
 * secret, and nothing but a ConnectionStringError is thrown.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import fc from "fast-check";
import { fuzz } from "../../../helpers/fuzz";
import { ConnectionStringError, parseConnectionString } from "@runtime/account/connection-string";
import { interpretConnectionInput } from "@runtime/account/connection-input";
import { toAccountError } from "@runtime/account/errors";
import { redact } from "@runtime/account/redact";

/** High-entropy secrets from a seed: a key of 32 or 64 bytes, a SAS signature (URL-encoded as the portal gives it). */
const secrets = fc.record({ seed: fc.integer(), long: fc.boolean() }).map(({ seed, long }) => ({
  key: createHash(long ? "sha512" : "sha256")
    .update(`key ${seed}`)
    .digest("base64"),
  sig: encodeURIComponent(createHash("sha256").update(`sig ${seed}`).digest("base64")),
}));

function pieceOf(text: string, secret: string): string | undefined {
  for (let i = 0; i + 8 <= secret.length; i++) if (text.includes(secret.slice(i, i + 8))) return secret.slice(i, i + 8);
  return undefined;
}

/** The texts a user could see after `input` was typed; fails on anything but a ConnectionStringError. */
function shown(input: string): string[] {
  const out: string[] = [];
  const attempt = (read: () => { endpoint: string; accountName: string }) => {
    try {
      const r = read();
      out.push(r.endpoint, r.accountName);
    } catch (e) {
      assert.ok(e instanceof ConnectionStringError, `threw ${String(e)} for ${JSON.stringify(input)}`);
      out.push(e.message, toAccountError(e, "https://x.table.core.windows.net", 1000).message);
    }
  };
  attempt(() => parseConnectionString(input));
  attempt(() => interpretConnectionInput(input, "entra-id"));
  return out;
}

const SEPARATORS = ["=", " ", ":", ": ", " = ", "==", "", "\t", '="', "\u0000"];
const NOISE = [" ", "\r", "\n", "\r\n", ";", "=", ":", '"', "'", "?", "&", "/", "\u0000", "é", "AccountKey", "sig=", "https://"];

/** One edit of a connection string, chosen and placed by numbers (so fast-check can shrink it). */
const edit = fc.tuple(
  fc.constantFrom(
    "separator",
    "dropName",
    "dropSemicolon",
    "insert",
    "delete",
    "truncate",
    "lineEnds",
    "case",
    "quote",
    "duplicate",
    "shuffle",
  ),
  fc.nat(),
  fc.nat(),
);

function apply(text: string, [op, a, b]: [string, number, number]): string {
  const segs = text.split(";");
  const i = a % segs.length;
  switch (op) {
    case "separator":
      segs[i] = segs[i].replace("=", SEPARATORS[b % SEPARATORS.length]);
      return segs.join(";");
    case "dropName":
      segs[i] = segs[i].slice(segs[i].indexOf("=") + 1);
      return segs.join(";");
    case "dropSemicolon":
      return text.replace(new RegExp(`^((?:[^;]*;){${a % 4}}[^;]*);`), "$1");
    case "insert": {
      const at = a % (text.length + 1);
      return text.slice(0, at) + NOISE[b % NOISE.length] + text.slice(at);
    }
    case "delete": {
      const at = a % Math.max(text.length, 1);
      return text.slice(0, at) + text.slice(at + 1 + (b % 3));
    }
    case "truncate":
      return text.slice(0, a % (text.length + 1));
    case "lineEnds":
      return text.split(";").join(["\r", "\n", "\r\n", ";\r\n", ","][b % 5]);
    case "case":
      segs[i] = b % 2 ? segs[i].toUpperCase() : segs[i].toLowerCase();
      return segs.join(";");
    case "quote":
      return `"${text}${b % 2 ? '"' : ""}`;
    case "duplicate":
      segs.splice(i, 0, segs[b % segs.length]);
      return segs.join(";");
    default: {
      const j = b % segs.length;
      [segs[i], segs[j]] = [segs[j], segs[i]];
      return segs.join(";");
    }
  }
}

/** A valid connection string of one of the shapes users have. */
function connectionString(shape: number, key: string, sig: string): string {
  const sas = `sv=2020-08-04&ss=t&srt=sco&sp=rwdlau&se=2099-01-01T00%3A00%3A00Z&sig=${sig}`;
  switch (shape % 4) {
    case 0:
      return `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${key};EndpointSuffix=core.windows.net`;
    case 1:
      return `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${key};TableEndpoint=https://acct.table.cosmos.azure.com:443/;`;
    case 2:
      return `TableEndpoint=https://acct.table.core.windows.net/;SharedAccessSignature=${sas}`;
    default:
      return `TableEndpoint=https://acct.table.core.windows.net/?${sas};AccountName=acct`;
  }
}

test("no message, endpoint or name shown for a malformed connection string holds a piece of its key or SAS", () => {
  fuzz(
    "secrets-connection-string",
    fc.record({ secret: secrets, shape: fc.nat(), edits: fc.array(edit, { minLength: 1, maxLength: 4 }) }),
    ({ secret, shape, edits }) => {
      const input = edits.reduce(apply, connectionString(shape, secret.key, secret.sig));
      for (const text of shown(input)) {
        for (const s of [secret.key, secret.sig]) {
          const piece = pieceOf(text, s);
          assert.equal(piece, undefined, `'${text}' shows '${piece}' of a secret; input ${JSON.stringify(input)}`);
        }
      }
    },
    400,
  );
});

test("a SAS pasted in a URL, however mangled, never reaches the endpoint or a message", () => {
  const url = fc.record({
    secret: secrets,
    host: fc.constantFrom("acct.table.core.windows.net", "127.0.0.1:10002/devstoreaccount1", "acct.table.cosmos.azure.com:443"),
    table: fc.constantFrom("", "Orders", "Orders()"),
    order: fc.nat(),
    edits: fc.array(edit, { maxLength: 2 }),
  });
  fuzz(
    "secrets-sas-url",
    url,
    ({ secret, host, table, order, edits }) => {
      const params = ["sv=2020-08-04", "ss=t", "srt=sco", "sp=rl", "se=2099-01-01", `sig=${secret.sig}`];
      const rotated = [...params.slice(order % params.length), ...params.slice(0, order % params.length)];
      const input = edits.reduce(apply, `https://${host}/${table}?${rotated.join("&")}`);
      for (const text of shown(input)) assert.equal(pieceOf(text, secret.sig), undefined, `'${text}' for ${JSON.stringify(input)}`);
    },
    300,
  );
});

test("redact leaves no piece of a key or SAS embedded in any text, and is idempotent", () => {
  const wrap = fc.constantFrom(
    "AccountKey=",
    "AccountKey ",
    "accountkey: ",
    '"AccountKey":"',
    "SharedAccessSignature=sv=1&sig=",
    "key ",
    "?sv=1&sig=",
    "&sig=",
    "sig=",
    "x?a=1&sig=",
  );
  fuzz(
    "secrets-redact",
    fc.record({ secret: secrets, before: fc.string({ maxLength: 30 }), after: fc.string({ maxLength: 30 }), wrap }),
    ({ secret, before, after, wrap }) => {
      const value = wrap.endsWith("sig=") ? secret.sig : secret.key;
      // Redaction works on tokens: the secret ends at a delimiter, as it does in a URL, a log line or a connection string.
      const text = `${before} ${wrap}${value} ${after}`;
      const out = redact(text);
      assert.equal(pieceOf(out, value), undefined, `${JSON.stringify(text)} → ${JSON.stringify(out)}`);
      assert.equal(redact(out), out);
    },
    500,
  );
});
