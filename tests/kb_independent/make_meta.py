"""Fill meta.json's ``objective`` and ``num_vars`` from the independent models.

Usage: python -m tests.kb_independent.make_meta [name ...]
"""
from __future__ import annotations

import json
import sys

from tests.test_knowledge_base import KB, independent_objective


def main(names: list[str]) -> None:
    names = names or sorted(p.parent.name for p in KB.glob("*/meta.json"))
    for name in names:
        path = KB / name / "meta.json"
        meta = json.loads(path.read_text())
        obj, nv = independent_objective(name)
        obj = float(f"{obj:.10g}") if abs(obj - round(obj)) > 1e-7 else float(round(obj))
        meta["objective"] = obj
        if nv:
            meta["num_vars"] = nv
        path.write_text(json.dumps(meta, indent=2) + "\n")
        print(f"{name:40s} {obj}")


if __name__ == "__main__":
    main(sys.argv[1:])
