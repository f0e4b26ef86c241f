"""docs/safety.md names the test that pins each promise: every test it names exists."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_test_named_in_the_threat_model_exists():
    doc = (ROOT / "docs" / "safety.md").read_text(encoding="utf-8")
    names = set(re.findall(r"\btest_[a-z0-9_]+[a-z0-9]\b", doc))
    defined = set()
    files = set()
    for path in (ROOT / "tests").rglob("*.py"):
        files.add(path.stem)
        defined.update(re.findall(r"^\s*def (test_\w+)", path.read_text(encoding="utf-8"), re.M))
    missing = sorted(n for n in names if n not in defined and n not in files)
    assert len(names) > 40 and missing == []
