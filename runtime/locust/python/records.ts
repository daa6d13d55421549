/**
 * A worker's records (one JSON line per second per partition, per operation,
 * per pattern) and the pacer of an open load. Python source text, part of
 * tdl_locust.py (runtime/locust/python/index.ts assembles it).
 */
export const PY_RECORDS = String.raw`# What a worker measured, one JSON line per second per partition (and per operation, per pattern), for
# "tdl stress --ingest" to read into the same report as the built-in engine's.
def latency_bucket(us):
    """Microseconds to three significant digits, as an HDR histogram keeps them."""
    us = max(1, int(us))
    drop = max(0, len(str(us)) - 3)
    return (us // 10 ** drop) * 10 ** drop


class Recorder:
    def __init__(self, path, worker):
        self.path = path
        self.worker = worker
        self.seconds = {}
        self.lock = threading.Lock()
        self.min = self.max = None
        self.file = None
        if path:
            os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
            self.file = open(path, "a", encoding="utf-8")

    def second(self, now):
        t = int(now)
        s = self.seconds.get(t)
        if s is None:
            s = self.seconds[t] = {"ops": {}, "parts": {}, "src": {}, "thr": [0, 0]}
        return s

    def op(self, now, op):
        o = self.second(now)["ops"].get(op)
        if o is None:
            o = self.second(now)["ops"][op] = {"n": 0, "e": 0, "r": 0, "sc": 0, "pg": 0, "err": {}, "codes": {}, "lat": {}}
        return o

    def part(self, now, pk):
        p = self.second(now)["parts"].get(pk)
        if p is None:
            p = self.second(now)["parts"][pk] = {"e": 0, "th": 0, "new": 0}
        return p

    def success(self, now, op, pk, entities, latency_s):
        o = self.op(now, op)
        o["n"] += 1
        o["e"] += entities
        b = str(latency_bucket(latency_s * 1e6))
        o["lat"][b] = o["lat"].get(b, 0) + 1
        if pk is not None:
            self.part(now, pk)["e"] += entities

    def failure(self, now, op, status, code):
        o = self.op(now, op)
        key = str(status) if status is not None else code
        o["err"][key] = o["err"].get(key, 0) + 1
        o["codes"][code] = o["codes"].get(code, 0) + 1

    def record(self, obj):
        if self.file:
            self.file.write(json.dumps(obj, separators=(",", ":")) + "\n")

    def flush(self, before=None):
        """Writes every second that has ended (all of them at the end of the run)."""
        with self.lock:
            for t in sorted(self.seconds):
                if before is not None and t >= int(before):
                    break
                s = self.seconds.pop(t)
                w = self.worker
                for pk, p in s["parts"].items():
                    self.record({"t": t, "w": w, "pk": pk, "e": p["e"], "th": p["th"], "new": p["new"]})
                for op, o in s["ops"].items():
                    self.record(dict(o, t=t, w=w, op=op))
                for name, c in s["src"].items():
                    self.record({"t": t, "w": w, "src": name, "calls": c[0], "failed": c[1], "th": c[2]})
                if s["thr"] != [0, 0]:
                    self.record({"t": t, "w": w, "throttled": {"partition": s["thr"][0], "account": s["thr"][1]}})
            if self.file:
                self.file.flush()


class Pacer:
    """Arrivals at a set rate (an open load): slots missed by more than max_lag are dropped, not sent in a burst."""

    def __init__(self, per_second, start, max_lag=0.2):
        self.per_second = per_second
        self.next = start
        self.max_lag = max_lag
        self.sent = 0
        self.dropped = 0

    def slot(self, deadline):
        now = time.time()
        interval = 1.0 / self.per_second
        if self.next < now - self.max_lag:
            missed = int((now - self.max_lag - self.next) / interval)
            self.dropped += missed
            self.next += missed * interval
        at = self.next
        if at >= deadline:
            return False
        self.next += interval
        self.sent += 1
        if at > now:
            gevent.sleep(at - now)
        return time.time() < deadline
`;
