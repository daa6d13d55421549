/**
 * The runtime every generated Python module carries (standard library
 * only): value checks, the key functions exactly as the core's
 * core/model/key-functions.ts computes them, the splitter behind the
 * parsers, and the readers.
 *
 * Python strings hold code points and JavaScript strings UTF-16 code units,
 * so everything that counts or cuts characters (lengths, widths, pad, the
 * splitter, charsets, the forbidden characters) works on a "unit string"
 * (`_units`: one character per UTF-16 unit) and turns pieces back with
 * `_text`. Numbers render as JavaScript's `String(n)` does (`_number_text`),
 * MD5 reads UTF-8 with lone surrogates as U+FFFD as the core's encoder does.
 * The splitter and the readers are in runtime-parse.ts. The property test
 * (test/unit/codegen/python.test.ts) checks the modules against the core on
 * random inputs.
 */
import {
  BUCKET_HEX_DIGITS,
  DATE_TOKENS,
  EPOCH_TICKS,
  MAX_DATE_MS,
  MAX_TICKS,
  MIN_DATE_MS,
  ServiceProfile,
  TICKS_DIGITS,
  TICKS_PER_MS,
} from "@core";
import { rangesOf } from "../source";
import { pyStr } from "./source";
import { PARSE } from "./runtime-parse";

/** A Python character class of UTF-16 code-unit ranges (`[\u0000-\u001f…]`), for patterns over unit strings. */
export function pyCharClass(ranges: ReadonlyArray<readonly [number, number]>): string {
  const u = (c: number) => `\\u${c.toString(16).padStart(4, "0")}`;
  return `[${ranges.map(([lo, hi]) => (lo === hi ? u(lo) : `${u(lo)}-${u(hi)}`)).join("")}]`;
}

/** The module's runtime for `profile`: constants, checks, key functions, splitter, readers. */
export function pythonRuntime(profile: ServiceProfile): string {
  const forbidden = profile.forbiddenKeyChar ? pyCharClass(rangesOf(profile.forbiddenKeyChar)) : undefined;
  return [HEAD, CHECKS, RENDER, keyChecked(profile, forbidden), PARSE].join("\n\n\n");
}

const HEAD = String.raw`class TableKeyError(ValueError):
    """A value that cannot go into a key of this design, or a text that is not such a key."""


_UTC = _dt.timezone.utc
_EPOCH = _dt.datetime(1970, 1, 1, tzinfo=_UTC)
# .NET ticks (100 ns since 0001-01-01) of the Unix epoch and of DateTime.MaxValue.
_EPOCH_TICKS = ${EPOCH_TICKS}
_MAX_TICKS = ${MAX_TICKS}
_TICKS_PER_MS = ${TICKS_PER_MS}
_TICKS_DIGITS = ${TICKS_DIGITS}
# The first and last millisecond a .NET DateTime holds (years 1 to 9999).
_MIN_DATE_MS = ${MIN_DATE_MS}
_MAX_DATE_MS = ${MAX_DATE_MS}
# The fixed-width tokens of date() formats; any other character is copied.
_DATE_TOKENS = (${DATE_TOKENS.map(pyStr).join(", ")})
_BUCKET_HEX_DIGITS = ${BUCKET_HEX_DIGITS}


def _units(s):
    """One character per UTF-16 code unit (lone surrogates kept): lengths and cuts as the service counts them."""
    if s.isascii():
        return s
    b = s.encode("utf-16-le", "surrogatepass")
    return "".join(map(chr, _struct.unpack("<%dH" % (len(b) // 2), b)))


def _text(u):
    """A unit string back to text (a surrogate pair becomes its character again)."""
    if u.isascii():
        return u
    return u.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def _ulen(s):
    return len(s) if s.isascii() else len(s.encode("utf-16-le", "surrogatepass")) // 2


def _show(v):
    """A value as messages quote it: clipped, so a megabyte of input does not come back."""
    if isinstance(v, str):
        s = _json.dumps(v)
    elif isinstance(v, _dt.datetime) and v.tzinfo is not None:
        s = _iso(v) if _MIN_DATE_MS <= _ms(v) <= _MAX_DATE_MS else repr(v)
    else:
        s = repr(v)
    return s[:80] + "\u2026" if len(s) > 80 else s


def _ms(d):
    """Milliseconds since the Unix epoch (floored, as a JavaScript Date holds them)."""
    return (d - _EPOCH) // _dt.timedelta(milliseconds=1)


def _date_of_ms(ms):
    return _EPOCH + _dt.timedelta(milliseconds=ms)`;

const CHECKS = String.raw`def _key_string(v, name, min_length, max_length, charset=None):
    if not isinstance(v, str):
        raise TableKeyError(f"{name} must be a string, not {_show(v)}")
    n = _ulen(v)
    if n < min_length or (max_length is not None and n > max_length):
        allowed = (f"at least {min_length}" if max_length is None
                   else f"exactly {max_length}" if min_length == max_length else f"{min_length} to {max_length}")
        raise TableKeyError(f"{name} = {_show(v)} has {n} characters; the design allows {allowed}")
    if charset is not None and not charset[0].fullmatch(_units(v)):
        raise TableKeyError(f'{name} = {_show(v)} holds a character outside its charset "{charset[1]}"')
    return v


def _key_enum(v, name, values):
    if v not in values or not isinstance(v, str):
        raise TableKeyError(f"{name} = {_show(v)} is not one of {', '.join(values)}")
    return v


def _key_integer(v, name, lo, hi):
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    if isinstance(v, bool) or not isinstance(v, int) or v < lo or v > hi:
        raise TableKeyError(f"{name} = {_show(v)} is not an integer in {lo}..{hi}")
    return v


def _key_finite(v, name):
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not _math.isfinite(float(v)):
        raise TableKeyError(f"{name} = {_show(v)} is not a finite number")
    return float(v)


def _key_boolean(v, name):
    if not isinstance(v, bool):
        raise TableKeyError(f"{name} = {_show(v)} is not a boolean")
    return v


def _key_datetime(v, name):
    """An aware datetime of the years 1 to 9999 (a naive one is refused: which instant it is would be a guess)."""
    if not isinstance(v, _dt.datetime) or v.tzinfo is None or v.utcoffset() is None:
        raise TableKeyError(f"{name} = {_show(v)} is not a timezone-aware datetime")
    if not _MIN_DATE_MS <= _ms(v) <= _MAX_DATE_MS:
        raise TableKeyError(f"{name} = {_show(v)} is not a date between the years 1 and 9999")
    return v


_GUID = _re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")


def _key_guid(v, name):
    if not isinstance(v, str) or not _GUID.fullmatch(v):
        raise TableKeyError(f"{name} = {_show(v)} is not a GUID (8-4-4-4-12 hex digits)")
    return v


def _key_bytes(v, name, max_bytes):
    if not isinstance(v, (bytes, bytearray)) or (max_bytes is not None and len(v) > max_bytes):
        raise TableKeyError(f"{name} = {_show(v)} is not bytes of at most {max_bytes} bytes")
    return bytes(v)`;

const RENDER = String.raw`def _number_text(x):
    """A double as JavaScript's String(x) writes it: the shortest digits that read back, ECMAScript's layout."""
    if x == 0:
        return "0"
    if x < 0:
        return "-" + _number_text(-x)
    mantissa, _, exponent = repr(x).partition("e")
    whole, _, fraction = mantissa.partition(".")
    # repr() gives the shortest digits that read back, as JavaScript does: x = int(digits) * 10 ** scale.
    digits = (whole + fraction).lstrip("0")
    stripped = digits.rstrip("0")
    scale = int(exponent or 0) - len(fraction) + len(digits) - len(stripped)
    k = len(stripped)
    n = k + scale
    if k <= n <= 21:
        return stripped + "0" * (n - k)
    if 0 < n <= 21:
        return stripped[:n] + "." + stripped[n:]
    if -6 < n <= 0:
        return "0." + "0" * -n + stripped
    e = n - 1
    sign = "+" if e >= 0 else "-"
    return (stripped if k == 1 else stripped[0] + "." + stripped[1:]) + "e" + sign + str(abs(e))


def _iso(d):
    """A datetime as JavaScript's toISOString() writes it (UTC, milliseconds)."""
    ms = _ms(d)
    u = _date_of_ms(ms)
    return f"{u.year:04d}-{u.month:02d}-{u.day:02d}T{u.hour:02d}:{u.minute:02d}:{u.second:02d}.{ms % 1000:03d}Z"


def _pad(digits, width, what):
    """pad(): decimal digits left-padded with 0 to the width, the sign in front; never wider than the width."""
    if digits.startswith("-"):
        rest = digits[1:]
        padded = "-" + "0" * max(0, width - 1 - _ulen(rest)) + rest
    else:
        padded = "0" * max(0, width - _ulen(digits)) + digits
    if _ulen(padded) > width:
        raise TableKeyError(f"{what}: {digits} does not fit in {width} characters")
    return padded


def _md5(text):
    """MD5 of the text as UTF-8 (a lone surrogate as U+FFFD), lowercase hex."""
    if not text.isascii():
        text = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return _hashlib.md5(text.encode("utf-8")).hexdigest()


def _hash(text, n):
    """hash(): the first n hex characters of the MD5 of the text."""
    return _md5(text)[:n]


def _bucket(text, n):
    """bucket(): the first 8 hex characters of the MD5 as an unsigned number, modulo n, padded to the width of n - 1."""
    return str(int(_md5(text)[:_BUCKET_HEX_DIGITS], 16) % n).rjust(len(str(n - 1)), "0")


def _reverse_integer(v, mx, width, what):
    """reverse(): the range's maximum minus the value, padded to the maximum's width; never wider."""
    digits = str(mx - v)
    if len(digits) > width:
        raise TableKeyError(f"{what}: {mx} - {v} = {digits} does not fit in {width} digits, so the key would not keep the order")
    return digits.rjust(width, "0")


def _reverse_date(d):
    """reverse() of a datetime: DateTime.MaxValue.Ticks minus its ticks, 19 digits."""
    return str(_MAX_TICKS - (_EPOCH_TICKS + _ms(d) * _TICKS_PER_MS)).rjust(_TICKS_DIGITS, "0")


def _date_text(d, fmt):
    """date(): the UTC fields of the datetime, each token zero-padded to its width."""
    ms = _ms(d)
    u = _date_of_ms(ms)
    fields = (u.year, u.month, u.day, u.hour, u.minute, u.second, ms % 1000)
    out = []
    i = 0
    while i < len(fmt):
        for t, token in enumerate(_DATE_TOKENS):
            if fmt.startswith(token, i):
                out.append(str(fields[t]).rjust(len(token), "0"))
                i += len(token)
                break
        else:
            out.append(fmt[i])
            i += 1
    return "".join(out)


def _key_until(text, separator, what):
    """A part of variable length ends where the separator after it first occurs: it may not hold that separator."""
    u = _units(text)
    s = _units(separator)
    if (u + s).find(s) != len(u):
        raise TableKeyError(f"{what} = {_show(text)} holds the separator {_show(separator)} that follows it, so the key could not be split back")
    return text`;

function keyChecked(profile: ServiceProfile, forbidden: string | undefined): string {
  const lines: string[] = [];
  if (forbidden) {
    lines.push(`# Characters ${profile.label} keys may not hold: ${profile.forbiddenKeyText ?? ""}.`);
    lines.push(`_FORBIDDEN = _re.compile(r"${forbidden}")`);
    lines.push("", "");
  }
  lines.push("def _key_checked(which, key, max_bytes):");
  lines.push(
    `    """A whole key: no forbidden character, and within ${profile.label}'s size limit (${profile.keyEncoding === "utf16" ? "UTF-16, 2 bytes a character" : "UTF-8 bytes"})."""`,
  );
  lines.push("    u = _units(key)");
  if (forbidden) {
    lines.push("    bad = _FORBIDDEN.search(u)");
    lines.push("    if bad:");
    lines.push(
      `        raise TableKeyError(f"{which} {_show(key)}: the character U+{ord(bad.group()):04X} at {bad.start()} may not appear in ${profile.label} keys")`,
    );
  }
  lines.push(profile.keyEncoding === "utf16" ? "    size = len(u) * 2" : `    size = len(key.encode("utf-8", "surrogatepass"))`);
  lines.push("    if size > max_bytes:");
  lines.push(`        raise TableKeyError(f"{which} {_show(key)} takes {size} bytes; ${profile.label} allows {max_bytes}")`);
  lines.push("    return key");
  return lines.join("\n");
}
