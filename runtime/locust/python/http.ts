/**
 * The Table service's REST calls: signing (a SAS, or SharedKeyLite from the
 * environment), entities as JSON with their Edm types, entity group
 * transactions, errors, and the guide's retry policy. Python source text, part
 * of tdl_locust.py (runtime/locust/python/index.ts assembles it).
 */
export const PY_HTTP = String.raw`# The Table service's REST interface, signed with a SAS (from the environment) or SharedKeyLite (the account key
# from the environment); the key and the signature are never logged or written.
API_VERSION = "2019-02-02"
JSON_HEADERS = {
    "Accept": "application/json;odata=nometadata",
    "DataServiceVersion": "3.0;NetFx",
    "MaxDataServiceVersion": "3.0;NetFx",
    "x-ms-version": API_VERSION,
}


class Signer:
    """Signs requests: a SAS appended to the query, or SharedKeyLite's Authorization header."""

    def __init__(self, endpoint, sas=None, account=None, key=None):
        self.endpoint = endpoint.rstrip("/")
        self.path = urllib.parse.urlsplit(self.endpoint).path
        self.sas = (sas or "").lstrip("?") or None
        self.account = account
        self.key = base64.b64decode(key) if key else None
        if not self.sas and not self.key:
            raise SystemExit("tdl: no credential: set TDL_SAS (a table SAS) or TDL_ACCOUNT_KEY with TDL_ACCOUNT (SharedKeyLite)")

    def url(self, resource, query=""):
        q = "&".join(x for x in (query, self.sas) if x)
        return f"{self.endpoint}/{resource}" + (f"?{q}" if q else "")

    def headers(self, resource, extra=None):
        h = dict(JSON_HEADERS)
        if extra:
            h.update(extra)
        if self.key and not self.sas:
            date = time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime())
            h["x-ms-date"] = date
            # SharedKeyLite for tables: the date and the canonical resource (/account/path), nothing else.
            path = urllib.parse.urlsplit(f"{self.endpoint}/{resource}").path
            comp = "?comp=" + resource.split("comp=")[1].split("&")[0] if "comp=" in resource else ""
            string = f"{date}\n/{self.account}{path}{comp}"
            sig = base64.b64encode(hmac.new(self.key, string.encode("utf-8"), hashlib.sha256).digest()).decode()
            h["Authorization"] = f"SharedKeyLite {self.account}:{sig}"
        return h


def key_path(table, pk, rk):
    quote = lambda s: urllib.parse.quote(s.replace("'", "''"), safe="")
    return f"{table}(PartitionKey='{quote(pk)}',RowKey='{quote(rk)}')"


def edm_json(entity, props):
    """An entity as the service's JSON: Int64, Guid, Double, DateTime and Binary carry their Edm type."""
    out = {}
    for k, v in entity.items():
        t = props.get(k)
        if isinstance(v, datetime.datetime):
            out[k] = v.astimezone(_UTC).strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (v.microsecond // 1000)
            out[k + "@odata.type"] = "Edm.DateTime"
        elif isinstance(v, (bytes, bytearray)):
            out[k] = base64.b64encode(bytes(v)).decode()
            out[k + "@odata.type"] = "Edm.Binary"
        elif t == "int64" and not isinstance(v, bool):
            out[k] = str(int(v))
            out[k + "@odata.type"] = "Edm.Int64"
        elif t == "guid":
            out[k] = str(v)
            out[k + "@odata.type"] = "Edm.Guid"
        elif t == "double" and not isinstance(v, bool):
            out[k] = repr(float(v))
            out[k + "@odata.type"] = "Edm.Double"
        else:
            out[k] = v
    return json.dumps(out)


class Failed(Exception):
    """A request the service refused (status, error code, message) or that got no answer (status None)."""

    def __init__(self, status, code, message=""):
        super().__init__(f"{status} {code}")
        self.status = status
        self.code = code
        self.message = message


def error_of(status, headers, body):
    code = headers.get("x-ms-error-code") if headers else None
    message = ""
    try:
        err = json.loads(body or "{}").get("odata.error", {})
        code = code or err.get("code")
        message = (err.get("message") or {}).get("value", "")
    except ValueError:
        pass
    return Failed(status, code or str(status), message)


def batch_body(signer, table, actions, boundary):
    """An entity group transaction's multipart body: one changeset, one part per action."""
    changeset = "changeset_" + boundary
    lines = [f"--batch_{boundary}", f"Content-Type: multipart/mixed; boundary={changeset}", ""]
    for verb, entity, body in actions:
        lines += [f"--{changeset}", "Content-Type: application/http", "Content-Transfer-Encoding: binary", ""]
        if verb == "create":
            # Each part's URL carries the SAS as the SDK's do: a table SAS authorizes a batch by the table its parts name.
            lines += [f"POST {signer.url(table)} HTTP/1.1", "Prefer: return-no-content"]
        else:
            lines += [f"PUT {signer.url(key_path(table, entity['PartitionKey'], entity['RowKey']))} HTTP/1.1"]
        lines += ["Accept: application/json;odata=nometadata", "Content-Type: application/json", "DataServiceVersion: 3.0;", "", body]
    lines += [f"--{changeset}--", "", f"--batch_{boundary}--", ""]
    return "\r\n".join(lines)


_STATUS = re.compile(r"HTTP/1\.1 (\d{3})")


def batch_failure(body):
    """The failed operation inside a 202 batch answer, if any (the changeset answers with the first failure)."""
    for m in _STATUS.finditer(body or ""):
        status = int(m.group(1))
        if status >= 300:
            rest = body[m.end():]
            code = re.search(r'"code"\s*:\s*"(\w+)"', rest)
            message = re.search(r'"value"\s*:\s*"([^"]*)"', rest)
            return Failed(status, code.group(1) if code else str(status), message.group(1) if message else "")
    return None


def retry_decision(e):
    """The guide's policy: back off on 503, 504 and 500 OperationTimedOut; a connection failure once at once; never else."""
    if e.status in (503, 504) or (e.status == 500 and e.code == "OperationTimedOut"):
        return "backoff"
    if e.status is None and e.code == "ConnectionError":
        return "immediately"
    return "never"


def backoff_delay(retry, base_ms=100, min_ms=50, max_ms=5000):
    """y = Rand(0.8z, 1.2z) * (2^x - 1); y = min(zmin + y, zmax), in seconds."""
    z = base_ms * (0.8 + 0.4 * random.random())
    return min(min_ms + z * (2 ** retry - 1), max_ms) / 1000


def throttle_scope(e):
    if e.status != 503 or e.code != "ServerBusy":
        return None
    return "account" if "over the account limit" in (e.message or "").lower() else "partition"
`;
