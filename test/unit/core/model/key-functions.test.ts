/**
 * The key functions' one definition (core/model/key-functions.ts) against
 * figures worked out apart from it: .NET's ticks, the date range of a
 * DateTime, MD5 test vectors, bucket widths, padding.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  bucketOf,
  bucketWidth,
  dateFormatParts,
  formatDate,
  hash32,
  invertedTicks,
  MAX_DATE_MS,
  md5hex,
  MIN_DATE_MS,
  padDigits,
  reverseInteger,
} from "@core";
import { fuzz } from "../../../helpers/fuzz";

test("a DateTime holds the years 1 to 9999; reverse counts its ticks down from DateTime.MaxValue in 19 digits", () => {
  assert.equal(new Date(MIN_DATE_MS).toISOString(), "0001-01-01T00:00:00.000Z");
  assert.equal(new Date(MAX_DATE_MS).toISOString(), "9999-12-31T23:59:59.999Z");
  // DateTime.MaxValue.Ticks 3155378975999999999 minus the Unix epoch's 621355968000000000.
  assert.equal(invertedTicks(0), "2534023007999999999");
  assert.equal(invertedTicks(MAX_DATE_MS), "0000000000000009999");
  assert.equal(invertedTicks(MIN_DATE_MS), "3155378975999999999");
});

test("later dates give smaller inverted ticks, all of 19 digits", () => {
  const date = fc.integer({ min: MIN_DATE_MS, max: MAX_DATE_MS });
  fuzz(
    "core-inverted-ticks-order",
    fc.tuple(date, date),
    ([a, b]) => {
      const [x, y] = [invertedTicks(a), invertedTicks(b)];
      assert.equal(x.length, 19);
      assert.equal(Math.sign(a - b), -Math.sign(x.localeCompare(y)));
    },
    1_000,
  );
});

test("date formats: tokens and other characters, no other letter", () => {
  const d = new Date("2026-03-04T05:06:07.089Z");
  assert.equal(formatDate(d, "yyyy-MM-dd HH:mm:ss.fff"), "2026-03-04 05:06:07.089");
  assert.equal(formatDate(d, "yyyyMMddHH"), "2026030405");
  assert.deepEqual(dateFormatParts("dd/MM"), ["dd", "/", "MM"]);
  assert.equal(dateFormatParts("yyyy-Q"), undefined);
  assert.equal(formatDate(d, "yyyy-Q"), "");
});

test("hash is MD5 of the UTF-8 text (a lone surrogate as U+FFFD); bucket its first 32 bits modulo n, as wide as n - 1", () => {
  // RFC 1321's test vectors.
  assert.equal(md5hex(""), "d41d8cd98f00b204e9800998ecf8427e");
  assert.equal(md5hex("abc"), "900150983cd24fb0d6963f7d28e17f72");
  assert.equal(md5hex("\ud800"), md5hex("\ufffd"));
  assert.equal(hash32("abc"), 0x90015098);
  assert.equal(bucketOf("abc", 16), String(0x90015098 % 16).padStart(2, "0"));
  assert.deepEqual([1, 2, 10, 11, 100, 101].map(bucketWidth), [1, 1, 1, 2, 2, 3]);
});

test("pad keeps a sign in front; reverse of an integer pads the difference", () => {
  assert.equal(padDigits("42", 5), "00042");
  assert.equal(padDigits("-42", 5), "-0042");
  assert.equal(padDigits("123456", 3), "123456");
  assert.equal(reverseInteger(99999, 42, 5), "99957");
});
