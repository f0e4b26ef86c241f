"""Where the shared test material lives (../shared from the project root), and a skip when it is absent."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("PYOPL_SHARED", ROOT.parent / "shared"))

needs_shared = pytest.mark.skipif(not (SHARED / "acceptance" / "cases.json").exists(),
                                  reason="../shared (acceptance and diagnostics cases) is not present here")


def load_cases(kind: str) -> list[dict]:
    path = SHARED / kind / "cases.json"
    if not path.exists():
        return []
    return json.loads(path.read_text())["cases"]


def challenge_references() -> list[dict]:
    path = SHARED / "benchmarks" / "ChallengeOR.json"
    if not path.exists():
        return []
    return [e for e in json.loads(path.read_text()) if e.get("model") and e.get("data")]
