/**
 * The Locust side: settings from the environment, one engine per worker
 * process, records flushed every second and uploaded at the end, and the
 * table's creation and deletion when the run holds the account key. Python
 * source text, part of tdl_locust.py (runtime/locust/python/index.ts assembles it).
 */
export const PY_LOCUST = String.raw`# The Locust side: settings from the environment, one engine per worker process shared by its users, the
# records flushed every second, and (with the account key and TDL_CREATE_TABLE=1) the table created and deleted.
def settings(workload, runner):
    env = os.environ
    index = getattr(runner, "worker_index", None)
    workers = max(1, int(env.get("TDL_WORKERS", "1")))
    if index is None or index < 0:
        index = int(env.get("TDL_WORKER_INDEX", zlib_crc(socket.gethostname()) % workers))
    endpoint = env.get("TDL_ENDPOINT") or workload["endpoint"]
    sas = env.get(f"TDL_SAS_{index}") or env.get("TDL_SAS")
    signer = Signer(endpoint, sas=sas, account=env.get("TDL_ACCOUNT") or workload.get("account"), key=env.get("TDL_ACCOUNT_KEY"))
    worker = f"{socket.gethostname()}-{os.getpid()}"
    records = env.get("TDL_RECORDS", "tdl-records")
    return {
        "signer": signer,
        "table": env.get("TDL_TABLE") or workload["table"],
        "worker": index % workers,
        "workers": workers,
        "rate": float(env.get("TDL_RATE", workload.get("rate", 0))) / workers,
        "duration": float(env.get("TDL_DURATION", workload["durationSeconds"])),
        "start_at": float(env.get("TDL_START_AT", "0")),
        "preload": -(-int(env.get("TDL_PRELOAD", workload.get("preload", 0))) // workers),
        "recorder": Recorder(os.path.join(records, f"{worker}.jsonl") if records else None, worker),
        "deadline": float("inf"),
        "drain": float(env.get("TDL_DRAIN", "2")),
    }


def watch_parent():
    """Started by tdl (TDL_PARENT_PID set), this process ends within 0.2 s of the tdl that started it, however tdl ends.

    A handler in tdl cannot run when tdl is killed (SIGKILL, a crash), so the watch runs here, in threads of the
    operating system's (not greenlets, which a busy hub could starve): tdl holds the write end of this
    process's stdin and never writes, so its end is an end of file here; and on POSIX, this process handed to
    another parent. The run's folder (TDL_RUN_DIR) goes with it; the table stays for tdl stress --cleanup,
    which finds it by its marker (its process is gone).
    """
    parent = os.environ.get("TDL_PARENT_PID", "")
    if not parent.isdigit():
        return
    parent = int(parent)
    import gevent.monkey

    start_thread = gevent.monkey.get_original("_thread", "start_new_thread")
    nap = gevent.monkey.get_original("time", "sleep")
    read = gevent.monkey.get_original("os", "read")

    def leave():
        run_dir = os.environ.get("TDL_RUN_DIR", "")
        if os.path.basename(run_dir).startswith("tdl-locust-"):
            import shutil

            shutil.rmtree(run_dir, ignore_errors=True)
        os._exit(70)

    def until_end_of_stdin():
        try:
            while read(0, 4096):
                pass
        except OSError:
            pass
        leave()

    def until_orphaned():
        while os.getppid() == parent:
            nap(0.2)
        leave()

    if os.environ.get("TDL_PARENT_PIPE") == "1":
        start_thread(until_end_of_stdin, ())
    if os.name == "posix" and os.getppid() == parent:
        start_thread(until_orphaned, ())


def zlib_crc(text):
    import zlib

    return zlib.crc32(text.encode())


class State:
    """One worker process's run: its engine, pacer, clock and records."""

    def __init__(self, workload, runner):
        self.workload = workload
        self.config = settings(workload, runner)
        self.engine = Engine(workload, self.config)
        self.items = workload["work"]
        self.weights = [w["weight"] for w in self.items]
        self.started = gevent.event.Event()
        self.preloading = False
        self.pacer = None
        self.flusher = gevent.spawn(self.flush_every_second)

    def flush_every_second(self):
        while True:
            gevent.sleep(1)
            self.config["recorder"].flush(before=time.time())

    def begin(self, client):
        """The first user preloads; every user waits until the load starts (TDL_START_AT, or when the preload is done)."""
        if self.started.is_set():
            return
        if self.preloading:
            self.started.wait()
            return
        self.preloading = True
        try:
            self.engine.preload(client, self.config["preload"])
        except SystemExit as e:
            # Said in the records (tdl stops the run with it) and on stderr; the users then idle.
            rec = self.config["recorder"]
            rec.record({"w": rec.worker, "failed": str(e)})
            rec.flush(before=0)
            print(e, file=sys.stderr, flush=True)
            self.config["deadline"] = 0
            self.started.set()
            return
        start = max(time.time(), self.config["start_at"])
        start_file = os.environ.get("TDL_START_FILE")
        if start_file:
            # tdl starts every worker at once, and the emulator's throttling with them: it writes the start time there.
            rec = self.config["recorder"]
            rec.record({"w": rec.worker, "ready": time.time()})
            rec.flush(before=0)
            waited = time.time()
            while not os.path.exists(start_file) and time.time() - waited < 120:
                gevent.sleep(0.05)
            try:
                with open(start_file, encoding="utf-8") as f:
                    start = float(f.read().strip() or time.time())
            except (OSError, ValueError):
                start = time.time()
        gevent.sleep(max(0.0, start - time.time()))
        self.config["deadline"] = start + self.config["duration"]
        if self.config["rate"] > 0:
            # The workers' slots interleave (worker i a 1/N step later), so all together they arrive evenly spaced,
            # as one pacer's do: in step, they would arrive in bursts of N.
            total = self.config["rate"] * self.config["workers"]
            self.pacer = Pacer(self.config["rate"], start + self.config["worker"] / total)
        self.config["recorder"].record({"w": self.config["recorder"].worker, "start": start, "deadline": self.config["deadline"]})
        print(f"tdl: {self.config['recorder'].worker} starts its load for {self.config['duration']:g} s", file=sys.stderr, flush=True)
        self.started.set()

    def step(self, client):
        self.begin(client)
        deadline = self.config["deadline"]
        if time.time() >= deadline:
            gevent.sleep(0.2)
            return
        if self.pacer and not self.pacer.slot(deadline):
            return
        item = random.choices(self.items, self.weights)[0]
        self.engine.run(client, item)

    def finish(self):
        self.flusher.kill()
        rec = self.config["recorder"]
        rec.flush()
        # The run ends at its deadline, or when the last call that was under way then ended (as the built-in engine's does).
        stop = max(min(time.time(), self.config["deadline"]), min(self.engine.last_end, self.config["deadline"] + self.config["drain"]))
        pace = {"sent": self.pacer.sent, "dropped": self.pacer.dropped, "perSecond": self.pacer.per_second} if self.pacer else None
        rec.record({"w": rec.worker, "stop": stop, "pace": pace})
        rec.flush()
        upload(rec.path)


def upload(path):
    """With TDL_RECORDS_URL (a blob container URL with a SAS), each worker puts its records there at the end."""
    url = os.environ.get("TDL_RECORDS_URL")
    if not url or not path or not os.path.exists(path):
        return
    import urllib.request

    base, _, sas = url.partition("?")
    target = f"{base.rstrip('/')}/{urllib.parse.quote(os.path.basename(path))}" + (f"?{sas}" if sas else "")
    with open(path, "rb") as f:
        req = urllib.request.Request(target, data=f.read(), method="PUT", headers={"x-ms-blob-type": "BlockBlob", "x-ms-version": API_VERSION})
    try:
        urllib.request.urlopen(req, timeout=30).close()
    except OSError as e:
        print(f"tdl: could not upload the records {os.path.basename(path)}: {type(e).__name__}", file=sys.stderr)


def table_lifecycle(workload, runner, create):
    """TDL_CREATE_TABLE=1 with SharedKeyLite: the master (or a lone runner) creates the marked table, or deletes it."""
    import urllib.request

    env = os.environ
    if env.get("TDL_CREATE_TABLE") != "1" or not env.get("TDL_ACCOUNT_KEY"):
        return
    signer = Signer(env.get("TDL_ENDPOINT") or workload["endpoint"], account=env.get("TDL_ACCOUNT") or workload.get("account"), key=env["TDL_ACCOUNT_KEY"])
    table = env.get("TDL_TABLE") or workload["table"]
    steps = []
    if create:
        marker = {"PartitionKey": "~tdl-stress-marker", "RowKey": "marker", "tool": "table-design-assistant", "version": "locust",
                  "createdAt": datetime.datetime.now(_UTC), "host": socket.gethostname(), "pid": os.getpid(), "design": workload["design"]}
        steps = [("POST", "Tables", json.dumps({"TableName": table})), ("POST", table, edm_json(marker, {}))]
    else:
        steps = [("DELETE", f"Tables('{table}')", None)]
    for method, resource, body in steps:
        headers = signer.headers(resource, {"Content-Type": "application/json"} if body else {})
        req = urllib.request.Request(signer.url(resource), data=body.encode() if body else None, method=method, headers=headers)
        for attempt in range(6):
            try:
                urllib.request.urlopen(req, timeout=10).close()
                break
            except urllib.error.HTTPError as e:
                if e.code not in (500, 503, 504) or attempt == 5:
                    print(f"tdl: {method} {resource.split('(')[0]} answered {e.code}", file=sys.stderr)
                    break
            except OSError:
                if attempt == 5:
                    break
            time.sleep(backoff_delay(attempt + 1))
`;
