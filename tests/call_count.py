"""Work measured by counting Python calls (``sys.setprofile``), not by the clock: the same input
makes the same count on any machine under any load, so a test's verdict never depends on speed."""
from __future__ import annotations

import sys
from typing import Any, Callable


def python_calls(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, int]:
    """Run ``fn(*args, **kwargs)`` and return ``(its result, the number of Python function calls
    it made)``; calls into C functions are not counted. Exceptions propagate (the profiler is
    removed first)."""
    count = 0

    def profile(frame, event, arg):
        nonlocal count
        if event == "call":
            count += 1

    sys.setprofile(profile)
    try:
        result = fn(*args, **kwargs)
    finally:
        sys.setprofile(None)
    return result, count
