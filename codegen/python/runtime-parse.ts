/**
 * The Python runtime behind the parsers: the splitter that cuts a key into
 * its parts in one pass (in UTF-16 units, as the builders count), the
 * readers that turn a part's text back into a value, and the checks that a
 * text is exactly what a builder makes. Text of the module runtime.ts
 * assembles; it uses the helpers defined there (`_units`, `_show`, …).
 */

export const PARSE = String.raw`def _key_split(key, segments):
    """Cuts a key into the texts of its parts, in one pass (counting UTF-16 units, as the builders do)."""
    u = _units(key)
    out = []
    at = 0
    for kind, arg in segments:
        if kind == "literal":
            lit = _units(arg)
            if not u.startswith(lit, at):
                raise TableKeyError(f"expected {_show(arg)} at {at}")
            end = at + len(lit)
        elif kind == "width":
            end = at + arg
        elif kind == "until":
            end = u.find(_units(arg), at)
            if end < 0:
                raise TableKeyError(f"expected {_show(arg)} after {at}")
        else:
            end = len(u) - arg
        if end < at or end > len(u):
            raise TableKeyError(f"it ends too early, at {at}")
        out.append(_text(u[at:end]))
        at = end
    if at != len(u):
        raise TableKeyError(f"unexpected text at {at}")
    return out


def _key_parse(what, key, max_length, read):
    """Runs a parser; any TableKeyError names the key and what it is not."""
    try:
        if not isinstance(key, str):
            raise TableKeyError("a key is a string")
        if _ulen(key) > max_length:
            raise TableKeyError(f"it has {_ulen(key)} characters; no such key has more than {max_length}")
        return read(key)
    except TableKeyError as e:
        raise TableKeyError(f"{_show(key)} is not a {what}: {e}") from None


def _key_verify(text, rebuilt, what):
    """The text must be exactly what the builder makes of the values read from it."""
    if rebuilt != text:
        raise TableKeyError(f"{what} is {_show(text)}, but the values read from it build {_show(rebuilt)}")


def _key_shape(text, shape, what):
    """A part that gives no value back is still checked for the form every rendering of it has."""
    if not shape.fullmatch(_units(text)):
        raise TableKeyError(f"{what} cannot be {_show(text)}")


_INTEGER = _re.compile(r"-?[0-9]+")


def _read_integer(t):
    if not _INTEGER.fullmatch(t):
        raise TableKeyError(f"{_show(t)} is not an integer")
    return int(t)


def _read_number(t):
    try:
        n = float(t)
    except ValueError:
        raise TableKeyError(f"{_show(t)} is not a number") from None
    if not _math.isfinite(n):
        raise TableKeyError(f"{_show(t)} is not a number")
    return n


def _read_boolean(t):
    if t not in ("true", "false"):
        raise TableKeyError(f"{_show(t)} is not true or false")
    return t == "true"


_ISO = _re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})\.([0-9]{3})Z")


def _read_datetime(t):
    m = _ISO.fullmatch(t)
    try:
        if not m:
            raise ValueError(t)
        y, mo, d, h, mi, s, ms = (int(x) for x in m.groups())
        return _dt.datetime(y, mo, d, h, mi, s, ms * 1000, tzinfo=_UTC)
    except ValueError:
        raise TableKeyError(f"{_show(t)} is not an ISO 8601 UTC datetime") from None


_HEX = _re.compile(r"(?:[0-9a-f]{2})*")


def _read_hex(t):
    if not _HEX.fullmatch(t):
        raise TableKeyError(f"{_show(t)} is not lowercase hex bytes")
    return bytes.fromhex(t)


def _member(t, values, name, mapped=None):
    """The enum value whose rendering (as is, lowercased or uppercased) is the text."""
    for v in values:
        if (mapped(v) if mapped else v) == t:
            return v
    raise TableKeyError(f"{_show(t)} is no value of {name}")


def _read_reverse_date(t):
    ticks = _MAX_TICKS - _read_integer(t) - _EPOCH_TICKS
    # JavaScript's BigInt division truncates toward zero.
    ms = -(-ticks // _TICKS_PER_MS) if ticks < 0 else ticks // _TICKS_PER_MS
    try:
        return _date_of_ms(ms)
    except OverflowError:
        raise TableKeyError(f"{_show(t)} is not the reverse of a date between the years 1 and 9999") from None


def _read_date_text(t, fmt):
    """The datetime of a date() text whose format holds every token from yyyy to fff."""
    fields = [0, 1, 1, 0, 0, 0, 0]
    at = 0
    i = 0
    while i < len(fmt):
        k = next((n for n, token in enumerate(_DATE_TOKENS) if fmt.startswith(token, i)), -1)
        width = len(_DATE_TOKENS[k]) if k >= 0 else 1
        piece = t[at:at + width]
        if k >= 0:
            if len(piece) != width or not piece.isascii() or not piece.isdigit():
                raise TableKeyError(f'{_show(t)} does not match the date format "{fmt}"')
            fields[k] = int(piece)
        at += width
        i += width
    y, mo, d, h, mi, s, ms = fields
    try:
        return _dt.datetime(y, mo, d, h, mi, s, ms * 1000, tzinfo=_UTC)
    except ValueError:
        raise TableKeyError(f'{_show(t)} does not match the date format "{fmt}"') from None`;
