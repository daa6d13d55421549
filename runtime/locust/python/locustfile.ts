/**
 * The exported `locustfile.py`: Locust's entry point. It imports the runtime
 * (tdl_locust.py) and the design's workload (tdl_workload.py), makes a
 * Debian-packaged master and its workers meet, creates and deletes the
 * table when the run holds the account key, and defines the user.
 */
export const PY_LOCUSTFILE = String.raw`# A stress test of a design's table on Locust, exported by "tdl stress --export locust" (see README.md here).
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import locust.runners  # noqa: E402

# Debian's python3-locust carries an empty version string: a master would refuse its own workers as "pre 2.0".
if not locust.runners.__version__:
    locust.runners.__version__ = "2.12.1"

from locust import FastHttpUser, constant, events, task  # noqa: E402
from locust.runners import MasterRunner, WorkerRunner  # noqa: E402

import tdl_locust  # noqa: E402
from tdl_workload import WORKLOAD  # noqa: E402

# Started by tdl: end with it, however it ends (a handler there cannot run on SIGKILL).
tdl_locust.watch_parent()

_state = None


@events.test_start.add_listener
def _test_start(environment, **_kwargs):
    global _state
    if not isinstance(environment.runner, WorkerRunner):
        tdl_locust.table_lifecycle(WORKLOAD, environment.runner, create=True)
    if not isinstance(environment.runner, MasterRunner):
        _state = tdl_locust.State(WORKLOAD, environment.runner)


@events.test_stop.add_listener
def _test_stop(environment, **_kwargs):
    global _state
    if _state is not None:
        _state.finish()
        _state = None
    if not isinstance(environment.runner, WorkerRunner):
        tdl_locust.table_lifecycle(WORKLOAD, environment.runner, create=False)


class TableUser(FastHttpUser):
    """One of the run's users: it sends the workload's calls, paced when the run has a rate."""

    host = WORKLOAD["endpoint"]
    wait_time = constant(0)
    network_timeout = 10.0
    connection_timeout = 10.0

    @task
    def call(self):
        _state.step(self.client)
`;
