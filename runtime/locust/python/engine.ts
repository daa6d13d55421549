/**
 * Sending a call with the guide's back-off, counting each attempt in Locust's
 * statistics under a bounded name and each outcome in the records. Python
 * source text, part of tdl_locust.py (runtime/locust/python/index.ts assembles it).
 */
export const PY_ENGINE = String.raw`# Sending a call as the guide says (retries with back-off on 503, 504 and 500 OperationTimedOut), counting
# every attempt in Locust's statistics under a bounded name, and every outcome in the worker's records.
class Engine:
    def __init__(self, workload, config):
        self.w = workload
        self.config = config
        self.signer = config["signer"]
        self.table = config["table"]
        self.recorder = config["recorder"]
        self.gen = Generator(workload, config["worker"], config["workers"])
        self.pool = WrittenPool()
        self.planner = Planner(workload, self.gen, self.pool, self.table)
        self.labels = {}
        self.timeout = config.get("timeout", 10)
        self.last_end = 0.0

    def label(self, pk):
        """A request's partition label: the first 16 partitions this worker meets by name, the rest together."""
        if pk is None:
            return "(no partition)"
        name = self.labels.get(pk)
        if name is None:
            name = pk[:24] if len(self.labels) < 16 else "(other partitions)"
            self.labels[pk] = name
        return name

    def send(self, client, call):
        """One attempt: the rows a query returned (None for other calls), or raises Failed."""
        if call.method == "POST" and call.resource == "$batch":
            boundary = uuid.uuid4().hex
            body = batch_body(self.signer, self.table, call.body, boundary)
            headers = {"Content-Type": f"multipart/mixed; boundary=batch_{boundary}"}
        else:
            body = call.body
            headers = {"Content-Type": "application/json"} if body is not None else {}
        headers.update(call.headers)
        url = self.signer.url(call.resource, call.query)
        name = f"{call.op} {self.label(call.pk)}"
        try:
            with client.request(call.method, url, data=body, headers=self.signer.headers(call.resource, headers),
                                     name=name, catch_response=True) as res:
                status = res.status_code
                text = res.text if status >= 300 or call.list or call.resource == "$batch" else ""
                if not status:
                    res.failure("no answer")
                    raise Failed(None, "ConnectionError", str(res.error or ""))
                if status >= 300:
                    e = error_of(status, res.headers, text)
                    res.failure(f"{status} {e.code}")
                    raise e
                if call.resource == "$batch":
                    e = batch_failure(text)
                    if e:
                        res.failure(f"{e.status} {e.code}")
                        raise e
                res.success()
                if call.list:
                    return json.loads(text or "{}").get("value", [])
                return None
        except (OSError, gevent.Timeout) as e:
            raise Failed(None, "ConnectionError", type(e).__name__) from None

    def run(self, client, item):
        call = self.planner.prepare(item)
        source = item.get("source") if call.op == item["op"] else None
        rec = self.recorder
        t0 = time.time()
        if call.refused:
            rec.failure(t0, call.op, None, call.refused)
            self.count_source(t0, source, False)
            return
        retry = 0
        connection_retried = False
        while True:
            try:
                got = self.send(client, call)
                break
            except Failed as e:
                now = time.time()
                self.count_throttle(now, call, e, source)
                decision = retry_decision(e)
                if decision == "immediately" and not connection_retried:
                    connection_retried = True
                    rec.op(now, call.op)["r"] += 1
                    continue
                # Retries go on through the drain after the deadline, as the built-in engine's do.
                if decision == "backoff" and retry < 5 and now < self.config["deadline"] + self.config["drain"]:
                    retry += 1
                    rec.op(now, call.op)["r"] += 1
                    gevent.sleep(backoff_delay(retry))
                    continue
                if now > self.config["deadline"] + self.config["drain"]:
                    return  # past the drain: the built-in engine abandons such a call, and so does this one
                rec.failure(now, call.op, e.status, e.code)
                self.count_source(now, source, False)
                self.last_end = now
                return
        now = time.time()
        if now > self.config["deadline"] + self.config["drain"]:
            return
        latency = now - t0
        if got is not None:
            o = rec.op(now, call.op)
            o["sc"] += len(got)
            o["pg"] += 1
            rec.success(now, call.op, None, len(got), latency)
            for row in got:
                pk = row.get("PartitionKey")
                if isinstance(pk, str):
                    rec.part(now, pk)["e"] += 1
        else:
            rec.success(now, call.op, call.pk, call.entities, latency)
            if call.inserted and call.pk is not None:
                rec.part(now, call.pk)["new"] += call.entities
        self.count_source(now, source, True)
        self.last_end = now
        for w in call.written:
            self.pool.add(w)

    def count_source(self, now, source, ok):
        if source is None:
            return
        c = self.recorder.second(now)["src"].setdefault(source, [0, 0, 0])
        c[0] += 1
        if not ok:
            c[1] += 1

    def count_throttle(self, now, call, e, source):
        scope = throttle_scope(e)
        if scope is None:
            return
        s = self.recorder.second(now)
        if source is not None:
            # A 503 answer to a call of this access pattern, retried or final (the built-in engine's throttledCall).
            s["src"].setdefault(source, [0, 0, 0])[2] += 1
        s["thr"][0 if scope == "partition" else 1] += 1
        if scope == "partition" and call.pk is not None:
            self.recorder.part(now, call.pk)["th"] += call.entities or 1

    def preload(self, client, count):
        """Entities written before the load (upserts, not counted), so the first reads find something."""
        lo = hi = None
        for _ in range(count):
            call = self.planner.write({"op": "insert", "batch": 1, "write": "upsert"})
            for attempt in range(6):
                try:
                    self.send(client, call)
                    break
                except Failed as e:
                    if retry_decision(e) == "never" or attempt == 5:
                        raise SystemExit(f"tdl: the preload failed: {e.status} {e.code}")
                    gevent.sleep(backoff_delay(attempt + 1))
            for w in call.written:
                self.pool.add(w)
                lo = w[0] if lo is None or w[0] < lo else lo
                hi = w[0] if hi is None or w[0] > hi else hi
        if lo is not None:
            self.recorder.record({"w": self.recorder.worker, "preloaded": count, "min": lo, "max": hi})
`;
