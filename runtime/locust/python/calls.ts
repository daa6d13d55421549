/**
 * One call of a run from a work item, keyed as the mode keys it
 * (runtime/stress/operations.ts in Python). Python source text, part of
 * tdl_locust.py (runtime/locust/python/index.ts assembles it).
 */
export const PY_CALLS = String.raw`# One call of the run, from a work item: its rows (keyed as the mode keys them, with the design's index rows),
# the request that sends it, and what a success adds to the pool (as tdl's operations do).
SPREAD = 1024


def spread_key(n):
    """The spread mode's n-th partition key, in a scattered order (619 is odd, so it permutes 0..1023)."""
    return "stress-%04d" % ((n * 619) % SPREAD)


class Call:
    __slots__ = ("op", "pk", "entities", "method", "resource", "query", "body", "headers", "written", "inserted", "refused", "list")

    def __init__(self, op, pk, entities, method="GET", resource="", query="", body=None, headers=None):
        self.op, self.pk, self.entities = op, pk, entities
        self.method, self.resource, self.query, self.body, self.headers = method, resource, query, body, headers or {}
        self.written, self.inserted, self.refused, self.list = [], False, None, False


class Planner:
    """Turns work items into calls for one worker."""

    def __init__(self, workload, gen, pool, table):
        self.w = workload
        self.gen = gen
        self.pool = pool
        self.table = table
        self.mode = workload["mode"]
        self.types = {p["name"]: p["type"] for p in workload["properties"]}
        self.row_seq = 0

    def prepare(self, item):
        needs_sample = item.get("read") is not None or item["op"] in ("pointRead", "update", "delete")
        if needs_sample and not self.pool.items:
            return self.write({"op": "insert", "batch": 1})
        op = item["op"]
        if op == "insert":
            return self.write(item)
        if op == "transaction":
            return self.transaction(item)
        if op == "update":
            return self.update(item)
        if op == "delete":
            k = self.pool.take()
            return Call("delete", k[0], 1, "DELETE", key_path(self.table, k[0], k[1]), headers={"If-Match": "*"})
        return self.read(item)

    def rows_of(self, entity, values):
        return [entity] + self.gen.index_rows(entity, values)

    def write(self, item):
        design = self.mode == "design"
        first = self.gen.next(None, design)
        made = [first]
        fixed = self.gen.pinned(first[1], self.w["partitionProps"]) if design else None
        for _ in range(1, item.get("batch", 1)):
            made.append(self.gen.next(fixed, design))
        if not design:
            # One partition per call (a batch stays in it), row keys from a sequence no other worker draws.
            n = lambda: self.row_seq * self.gen.workers + self.gen.worker
            pk = "stress-hot" if self.mode == "single-partition" else spread_key(n())
            for entity, _values in made:
                entity["PartitionKey"] = pk
                entity["RowKey"] = "%012d" % n()
                self.row_seq += 1
        rows = [r for e, v in made for r in (self.rows_of(e, v) if design else [e])]
        upsert = item.get("write") == "upsert"
        call = self.send_rows("insert", rows, "upsert" if upsert else "create")
        call.written = [(e["PartitionKey"], e["RowKey"], v if design else None) for e, v in made]
        call.inserted = True
        return call

    def send_rows(self, op, rows, verb):
        pk = rows[0]["PartitionKey"]
        if len(rows) == 1:
            body = edm_json(rows[0], self.types)
            if verb == "upsert":
                return Call(op, pk, 1, "PUT", key_path(self.table, pk, rows[0]["RowKey"]), body=body)
            return Call(op, pk, 1, "POST", self.table, body=body, headers={"Prefer": "return-no-content"})
        call = Call(op, pk, len(rows), "POST", "$batch")
        call.body = [(verb, r, edm_json(r, self.types)) for r in rows]
        if any(r["PartitionKey"] != pk for r in rows):
            call.refused = "CommandsInBatchActOnDifferentPartitions"
        return call

    def transaction(self, item):
        first = self.gen.next()
        shared = self.gen.pinned(first[1], item.get("sharing") or [])
        made = [first] + [self.gen.next(shared) for _ in range(1, item.get("batch", 1))]
        rows = [r for e, v in made for r in self.rows_of(e, v)]
        call = self.send_rows("transaction", rows, "create")
        call.written = [(e["PartitionKey"], e["RowKey"], v) for e, v in made]
        call.inserted = True
        return call

    def update(self, item):
        pk, rk, values = self.pool.pick()
        if values is not None:
            entity = self.gen.next(self.gen.pinned(values, self.w["keyProps"]))[0]
        else:
            entity = self.gen.next(None, False)[0]
        entity["PartitionKey"], entity["RowKey"] = pk, rk
        method = "MERGE" if item.get("write") == "merge" else "PUT"
        return Call("update", pk, 1, method, key_path(self.table, pk, rk), body=edm_json(entity, self.types), headers={"If-Match": "*"})

    def read(self, item):
        read = item.get("read")
        if read is None:
            pk, rk, _ = self.pool.pick()
            return Call("pointRead", pk, 1, "GET", key_path(self.table, pk, rk))
        sample = self.pool.pick()
        request = read(sample[2] if sample else None)
        if request[0] == "get":
            return Call(item["op"], request[1], 1, "GET", key_path(self.table, request[1], request[2]))
        _, flt, take, pk = request
        query = "$top=%d" % take + ("&$filter=" + urllib.parse.quote(flt, safe="") if flt else "")
        call = Call(item["op"], pk, 0, "GET", self.table + "()", query=query)
        call.list = True
        return call
`;
