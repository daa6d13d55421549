/**
 * Checks of the typed literals of a filter (date-times, GUIDs, binary,
 * integer and double ranges), each with a message that shows the form to
 * write. The checks are anchored patterns without nested quantifiers, so
 * they run in linear time however long the literal.
 */
import { clipVisible } from "../text/words";
import { ODataToken } from "./lexer";

const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,7})?)?(Z|[+-]\d{2}:\d{2})$/;
const GUID = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/;
const HEX_BYTES = /^(?:[0-9A-Fa-f][0-9A-Fa-f])*$/;
const INT64_MAX = 9223372036854775807n;

/** Digits of an integer literal without its sign, so that a huge literal is judged by its length, not parsed. */
function magnitudeDigits(text: string): string {
  return text.replace(/^-?0*/, "");
}

/** Why a literal token is not a valid value of its type, or undefined when it is. */
export function literalProblem(t: ODataToken): string | undefined {
  switch (t.kind) {
    case "datetime":
      if (!ISO_DATETIME.test(t.text) || Number.isNaN(Date.parse(t.text)))
        return `datetime'${clipVisible(t.text)}' is not an ISO 8601 date-time such as datetime'2026-01-01T00:00:00Z'`;
      return undefined;
    case "guid":
      return GUID.test(t.text)
        ? undefined
        : `guid'${clipVisible(t.text)}' is not a GUID such as guid'0f8fad5b-d9cb-469f-a165-70867728950e'`;
    case "binary":
      return HEX_BYTES.test(t.text) ? undefined : `X'${clipVisible(t.text)}' is not hexadecimal bytes such as X'0a1b'`;
    case "int": {
      const digits = magnitudeDigits(t.text);
      const value = digits.length > 10 ? Infinity : Math.abs(Number(t.text));
      const limit = t.text.startsWith("-") ? 2147483648 : 2147483647;
      return value > limit
        ? `${clipVisible(t.text)} does not fit a 32-bit integer: add the L suffix (${clipVisible(t.text)}L) for int64`
        : undefined;
    }
    case "int64": {
      const digits = magnitudeDigits(t.text);
      const fits =
        digits.length <= 19 && (t.text.startsWith("-") ? BigInt(digits || "0") <= INT64_MAX + 1n : BigInt(digits || "0") <= INT64_MAX);
      return fits ? undefined : `${clipVisible(t.text)}L does not fit a 64-bit integer (−9223372036854775808 to 9223372036854775807)`;
    }
    case "double":
      return Number.isFinite(Number(t.text)) ? undefined : `${clipVisible(t.text)} is too large for a double (at most about 1.8e308)`;
    default:
      return undefined;
  }
}
