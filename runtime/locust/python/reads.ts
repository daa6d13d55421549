/**
 * A design's query as the request its class says, its bounds worked out at
 * export (read-plans.ts) and filled in with a sampled entity's values. Python
 * source text, part of tdl_locust.py (runtime/locust/python/index.ts assembles it).
 */
export const PY_READS = String.raw`# A design's query as the request its class says (tdl's reads.ts): the key bounds were worked out from the design
# when the workload was exported; here the sample's values fill them in.
def odata_string(s):
    return "'" + s.replace("'", "''") + "'"


def prefix_end(prefix):
    """The smallest text above every text that starts with the prefix (its last UTF-16 unit plus one)."""
    u = prefix.encode("utf-16-le", "surrogatepass")
    last = (int.from_bytes(u[-2:], "little") + 1) & 0xFFFF
    return (u[:-2] + last.to_bytes(2, "little")).decode("utf-16-le", "surrogatepass")


def within(name, prefix):
    return [f"{name} ge {odata_string(prefix)}", f"{name} lt {odata_string(prefix_end(prefix))}"]


def range_clauses(name, prefix, at, op, reversing):
    if op == "prefix":
        return within(name, at)
    lower = op in (">", ">=", "between")
    strict = op in (">", "<")
    if lower != reversing:
        return [f"{name} {'gt' if strict else 'ge'} {odata_string(at)}"] + ([f"{name} lt {odata_string(prefix_end(prefix))}"] if prefix else [])
    return ([f"{name} ge {odata_string(prefix)}"] if prefix else []) + [f"{name} {'lt' if strict else 'le'} {odata_string(at)}"]


def odata_literal(v, t, number_text, iso):
    if t == "int":
        return str(int(v))
    if t == "int64":
        return f"{int(v)}L"
    if t == "double":
        s = number_text(float(v))
        return s if re.search(r"[.eE]", s) else s + ".0"
    if t == "bool":
        return "true" if v is True or v == "true" else "false"
    if t == "datetime":
        return f"datetime'{iso(v)}'"
    if t == "guid":
        return f"guid'{v}'"
    if t == "binary":
        return f"X'{bytes(v).hex()}'"
    return odata_string(str(v))


def property_clause(name, op, t, v, number_text, iso):
    if v is None:
        return None
    value = odata_literal(v, t, number_text, iso)
    if op == "=":
        return f"{name} eq {value}"
    if op in ("<", "<=", ">"):
        return f"{name} {dict(zip(('<', '<=', '>'), ('lt', 'le', 'gt')))[op]} {value}"
    if op in (">=", "between"):
        return f"{name} ge {value}"
    if op == "prefix" and isinstance(v, str) and v:
        return f"{name} ge {value} and {name} lt {odata_string(prefix_end(v))}"
    return None


def key_bound(b, v):
    prefix = "".join(step if isinstance(step, str) else step(v) for step in b["steps"])
    end = b["end"]
    if end[0] == "exact":
        return prefix, [f"{b['name']} eq {odata_string(prefix)}"]
    if end[0] == "range":
        _, part, op, reversing = end
        return None, range_clauses(b["name"], prefix, prefix + part(v), op, reversing)
    return None, within(b["name"], prefix) if b["pinned"] and prefix else []


def read_request(plan, sample, number_text, iso):
    """('get', pk, rk) or ('list', filter, take, pk): one call of a query, its "?" taken from a written entity."""
    if plan.get("static"):
        return plan["static"]
    v = dict(sample or {})
    v.update(plan["literals"])
    pk = key_bound(plan["pk"], v)
    rk = key_bound(plan["rk"], v)
    if plan["class"] == "point" and pk[0] is not None and rk[0] is not None:
        return ("get", pk[0], rk[0])
    rest = [property_clause(name, op, t, v.get(name), number_text, iso) for name, op, t in plan["rest"]]
    clauses = pk[1] + rk[1] + [c for c in rest if c]
    return ("list", " and ".join(clauses) or None, plan["take"], pk[0])
`;
