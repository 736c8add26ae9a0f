"""The crash test's worker: a small fork server. It imports pbem once, then for every `run ARGS`
line on stdin forks a child process that runs `pbem ARGS` (one `poll --once`) and reports
`child <pid>` at once and `exit <wait status>` when the child ends. The test kills children
with SIGKILL at random moments; each `run` is a fresh process, as a restart after a crash is.
(Forking from a warm parent keeps 40 restarts from costing 40 interpreter start-ups.)"""

from __future__ import annotations

import os
import sys

from pbem.cli import main
from tests.support.ruleset_registration import register_test_rulesets


def serve() -> None:
    register_test_rulesets()
    print("ready", flush=True)
    for line in sys.stdin:
        words = line.split()
        if not words or words[0] != "run":
            continue
        pid = os.fork()
        if pid == 0:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)  # the child's report lines would mix with ours
            os._exit(main(words[1:]))
        print(f"child {pid}", flush=True)
        _, status = os.waitpid(pid, 0)
        print(f"exit {status}", flush=True)


if __name__ == "__main__":
    serve()
