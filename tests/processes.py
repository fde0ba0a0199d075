"""What the tests of processes share: waiting for a condition, and telling whether a process has ended."""
from __future__ import annotations

import time
from pathlib import Path

import pytest


def wait_for(condition, what: str, timeout: float = 60.0):
    """Poll `condition` until it holds (its value is returned); fail saying `what` did not happen."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.02)
    pytest.fail(f"waited {timeout:.0f} s: {what}")


def gone(pid: int) -> bool:
    """The process has ended (or is only a zombie waiting for its parent, or an adopter, to reap it)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return True
    return state in ("Z", "X")
