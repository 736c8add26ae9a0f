"""deploy/pbem.service rides out a long outage (issue 20): systemd never stops restarting it,
and waits longer between restarts the longer the outage lasts, up to five minutes. The unit is
checked by systemd's own parser (`systemd-analyze verify`) and its restart schedule worked out
as systemd does."""

from __future__ import annotations

import subprocess
from pathlib import Path

UNIT = Path(__file__).resolve().parents[2] / "deploy" / "pbem.service"
# Keys systemd older than 254 does not know yet; it warns and ignores them (docs/operations.md).
NEWER_KEYS = ("RestartSteps", "RestartMaxDelaySec")


def settings(section: str) -> dict[str, str]:
    """The unit's `key=value` lines of [section] (the last one of a key wins)."""
    found: dict[str, str] = {}
    current = ""
    for raw in UNIT.read_text().splitlines():
        line = raw.strip()
        if line.startswith("["):
            current = line.strip("[]")
        elif "=" in line and not line.startswith("#") and current == section:
            key, value = line.split("=", 1)
            found[key] = value
    return found


def restart_delays(service: dict[str, str], restarts: int) -> list[float]:
    """Seconds before each of `restarts` restarts in a row: from RestartSec to
    RestartMaxDelaySec in RestartSteps steps of one factor (systemd's service.c)."""
    first, last = float(service["RestartSec"]), float(service["RestartMaxDelaySec"])
    steps = int(service["RestartSteps"])
    return [first * (last / first) ** (min(n, steps) / steps) for n in range(restarts)]


def test_systemd_restarts_it_for_ever_with_a_growing_delay() -> None:
    unit, service = settings("Unit"), settings("Service")
    # No start limit: 10 failures in 10 minutes used to leave it dead for good.
    assert unit["StartLimitIntervalSec"] == "0" and "StartLimitBurst" not in unit
    assert service["Restart"] == "on-failure"
    delays = restart_delays(service, 300)
    assert [round(delay) for delay in delays[:8]] == [10, 18, 31, 55, 97, 170, 300, 300]
    # A database away for a day: still restarting, at most 5 minutes after it returns.
    assert max(delays) == 300.0 and sum(delays) > 24 * 3600


def test_systemd_reads_the_unit_without_complaint(tmp_path: Path) -> None:
    # Verify needs the command to exist: the same unit, run as this test's own programme.
    unit = tmp_path / "pbem.service"
    unit.write_text(UNIT.read_text().replace("/opt/pbem/venv/bin/pbem", "/bin/true"))
    checked = subprocess.run(
        ["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, check=False
    )
    complaints = [
        line
        for line in checked.stderr.splitlines()
        if not any(f"Unknown key '{key}'" in line for key in NEWER_KEYS)
    ]
    assert (checked.returncode, complaints) == (0, [])
