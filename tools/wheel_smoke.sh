#!/usr/bin/env bash
# Smoke test of what users install: build the wheel, install it (not editable) with the `llm`
# extra into a fresh virtual environment, and run pyopl and syntagm from a folder outside the
# checkout, so nothing can be read from the source tree by accident.
#
# Usage: bash tools/wheel_smoke.sh [PYTHON]   (default: python; needs setuptools>=77 and network
# or a pip cache for the dependencies of the fresh venv)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PY="${1:-python}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
say() { printf 'wheel smoke: %s\n' "$*"; }
fail() { printf 'wheel smoke: FAILED: %s\n' "$*" >&2; exit 1; }

say "building the wheel (from a copy of the sources: no stale build/ folder can hide a missing file)"
mkdir -p "$WORK/src"
cp "$ROOT/pyproject.toml" "$ROOT/setup.py" "$ROOT/README.md" "$WORK/src/"
for pkg in pyopl syntagm grammar knowledge_base; do
    (cd "$ROOT" && tar --exclude=__pycache__ -cf - "$pkg") | (cd "$WORK/src" && tar -xf -)
done
"$PY" -m pip wheel --no-deps --no-build-isolation -q -w "$WORK/dist" "$WORK/src"
WHEEL="$(ls "$WORK"/dist/pyopl-*.whl)"
say "installing $(basename "$WHEEL") into a fresh venv"
"$PY" -m venv "$WORK/venv"
VPY="$WORK/venv/bin/python"
"$VPY" -m pip install -q "${WHEEL}[llm]"

RUN="$WORK/elsewhere"
mkdir -p "$RUN"
cp "$ROOT/examples/transport.mod" "$ROOT/examples/transport.dat" "$RUN/"
cd "$RUN"
export PATH="$WORK/venv/bin:$PATH"
unset PYTHONPATH SYNTAGM_KB || true

where="$("$VPY" -c 'import pyopl, syntagm; print(pyopl.__file__); print(syntagm.__file__)')"
case "$where" in *"$ROOT"*) fail "pyopl was imported from the checkout: $where" ;; esac
"$VPY" -m pip show pyopl > pip-show.txt 2>/dev/null || fail "pip show pyopl exited $?"
grep -q '^Name: pyopl$' pip-show.txt || fail "pip show pyopl: $(cat pip-show.txt)"

say "pyopl solve"
pyopl solve transport.mod transport.dat --format json > solve.json || fail "pyopl solve exited $?"
"$VPY" - <<'PY' || fail "pyopl solve gave a wrong result"
import json
r = json.load(open("solve.json"))
assert r["status"] == "optimal", r["status"]
assert r["objective"] == 2590, r["objective"]  # examples/transport: hand-checked optimum
PY

say "pyopl solve, text report (the constraint table's library is installed with the wheel)"
pyopl solve transport.mod transport.dat > solve.txt || fail "pyopl solve (text) exited $?"
grep -Eq '^constraints: +dual +slack$' solve.txt || fail "no constraint table in: $(cat solve.txt)"
grep -Eq '^  ctDemand\["Oslo"\] +[-0-9.e+]+ +[-0-9.e+]+$' solve.txt || fail "the constraint table lost a row: $(cat solve.txt)"

say "pyopl check on a bad model (expects exit 1, OPL0101)"
printf 'dvar float+ x;\nminimize x + y;\n' > bad.mod
set +e
pyopl check bad.mod --format json > check.json
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "pyopl check on a bad model exited $rc, expected 1"
grep -q '"OPL0101"' check.json || fail "no OPL0101 in the diagnostics: $(cat check.json)"

say "pyopl explain"
pyopl explain OPL0101 > explain.txt || fail "pyopl explain exited $?"
grep -q "OPL0101" explain.txt || fail "pyopl explain OPL0101: $(cat explain.txt)"

say "syntagm prompt-size (knowledge base shipped)"
printf '[{"en_question": "A bakery makes bread and cakes with limited oven hours; maximise profit."}]\n' > q.json
syntagm prompt-size q.json --format json > size.json || fail "syntagm prompt-size exited $?"
"$VPY" - <<'PY' || fail "syntagm prompt-size found no exemplars"
import json
r = json.load(open("size.json"))
assert r["knowledge_base"]["exemplars"] > 0, r
assert "site-packages" in r["knowledge_base"]["path"], r
print("wheel smoke: %d exemplars, first prompt %s tokens" % (r["knowledge_base"]["exemplars"], r["max"]))
PY
say "ok"
