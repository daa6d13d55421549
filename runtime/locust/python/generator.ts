/**
 * Entities from the design's property domains (runtime/stress/generator.ts in
 * Python), and the pool of what a worker wrote. Python source text, part of
 * tdl_locust.py (runtime/locust/python/index.ts assembles it).
 */
export const PY_GENERATOR = String.raw`"""Entities for a stress test, generated from the design's property domains (as tdl's generator does)."""
import base64, datetime, hashlib, hmac, json, math, os, random, re, socket, sys, threading, time, urllib.parse, uuid

import gevent
import gevent.event

_UTC = datetime.timezone.utc
_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=_UTC)


def _from_ms(ms):
    return _EPOCH + datetime.timedelta(milliseconds=ms)


class Generator:
    """One worker's entities: each property's domain, "hot" skew exactly, "increasing" values interleaved across workers."""

    def __init__(self, workload, worker, workers, rng=None):
        self.w = workload
        self.props = workload["properties"]
        self.worker = worker
        self.workers = max(1, workers)
        self.seq = 0
        self.started = int(time.time() * 1000)
        self.hot_due = {}
        self.random = rng or random.Random()
        self.filler = workload.get("filler", 0)

    def next_n(self):
        """A sequence number no other worker draws: the workers' sequences interleave."""
        n = self.seq * self.workers + self.worker
        self.seq += 1
        return n

    def next(self, fixed=None, render_keys=True):
        n = self.next_n()
        values = {}
        for p in self.props:
            name = p["name"]
            values[name] = fixed[name] if fixed and name in fixed else self.value(p, n)
        entity = {"PartitionKey": "p", "RowKey": str(n)}
        if render_keys:
            entity["PartitionKey"] = self.w["keys"]["partition_key"](values)
            entity["RowKey"] = self.w["keys"]["row_key"](values)
        for p in self.props:
            entity[p["name"]] = values[p["name"]]
        if self.filler:
            entity["Padding"] = "x" * self.filler
        return entity, values

    def index_rows(self, entity, values):
        return [dict(entity, RowKey=build(values)) for build in self.w["keys"]["indexes"]]

    def pinned(self, values, names):
        return {n: values[n] for n in names if n in values}

    def hot_turn(self, name, share):
        due = self.hot_due.get(name, 0.0) + share
        hot = due >= 1
        self.hot_due[name] = due - 1 if hot else due
        return hot

    def value(self, p, n):
        t = p["type"]
        if p.get("increasing") or p.get("decreasing"):
            if t == "datetime":
                return _from_ms(self.started + n if p.get("increasing") else self.started - n)
            lo, hi = p.get("min"), p.get("max")
            base = lo if lo is not None and hi is not None and p.get("increasing") else (hi if hi is not None else 10 ** 9)
            v = base + n if p.get("increasing") else base - n
            return float(v) if t == "double" else v
        distinct = max(1, p.get("distinct") or len(p.get("enum") or ()) or 1000000)
        i = 0 if p.get("hot") is not None and self.hot_turn(p["name"], p["hot"]) else int(self.random.random() * distinct)
        if t in ("int", "int64"):
            lo = p.get("min") if p.get("min") is not None else 0
            hi = p.get("max") if p.get("max") is not None else lo + distinct
            span = hi - lo + 1
            return lo + (i % span if distinct >= span else int(i / distinct * span))
        if t == "double":
            return i + self.random.random()
        if t == "bool":
            return i % 2 == 0
        if t == "datetime":
            return _from_ms(1767225600000 + i * 1000)
        if t == "guid":
            return "00000000-0000-4000-8000-%012x" % (i % 16 ** 12) if p.get("distinct") is not None else str(uuid.uuid4())
        if t == "enum":
            values = p.get("enum") or [""]
            return values[i % len(values)]
        if t == "binary":
            return i.to_bytes(max(1, (i.bit_length() + 7) // 8), "big")
        return self.string_of(i, p)

    @staticmethod
    def string_of(i, p):
        alphabet = p["alphabet"]
        s = ""
        x = i
        while True:
            s = alphabet[x % len(alphabet)] + s
            x //= len(alphabet)
            if x <= 0:
                break
        s = s.rjust(max(1, p.get("minLength", 1)), alphabet[0])
        mx = p.get("maxLength", 16)
        return s[-mx:] if len(s) > mx else s


class WrittenPool:
    """What this worker wrote, for reads, updates and deletes: a uniform sample of bounded size."""

    def __init__(self, capacity=20000, rng=None):
        self.items = []
        self.added = 0
        self.capacity = capacity
        self.random = rng or random.Random()

    def add(self, item):
        self.added += 1
        if len(self.items) < self.capacity:
            self.items.append(item)
            return
        j = int(self.random.random() * self.added)
        if j < self.capacity:
            self.items[j] = item

    def pick(self):
        return self.items[int(self.random.random() * len(self.items))] if self.items else None

    def take(self):
        if not self.items:
            return None
        i = int(self.random.random() * len(self.items))
        item = self.items[i]
        self.items[i] = self.items[-1]
        self.items.pop()
        return item
`;
