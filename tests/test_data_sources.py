"""`.dat` data sources (issue 48): spreadsheets through openpyxl, SQLite and PostgreSQL databases,
CSV files; reads shaped by the declarations, writes after the solve (into the output folder's copy
of a workbook, never over the input; into a database's declared tables only), and diagnostics at
the `.dat` line. Workbooks and databases are made here; the expected optima come from
scipy.optimize.linprog on the same numbers, never from pyopl."""
from __future__ import annotations

import os
import shutil
import socket
import sqlite3
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np
import pytest
from scipy.optimize import linprog

import pyopl

openpyxl = pytest.importorskip("openpyxl", reason="openpyxl (the `sheets` extra, in `dev`) is not installed")

PLANTS, MARKETS = ["Lyon", "Turin"], ["Milan", "Nice", "Bern"]
SUPPLY, DEMAND = [30.0, 25.0], [10.0, 20.0, 15.0]
COST = [[2.0, 4.0, 5.0], [3.0, 1.0, 7.0]]

TRANSPORT = """
{string} Plants = ...;
{string} Markets = ...;
float supply[Plants] = ...;
float demand[Markets] = ...;
float cost[Plants][Markets] = ...;
dvar float+ ship[Plants][Markets];
dexpr float total = sum(p in Plants, m in Markets) cost[p][m] * ship[p][m];
minimize total;
subject to {
  forall(p in Plants) sum(m in Markets) ship[p][m] <= supply[p];
  forall(m in Markets) sum(p in Plants) ship[p][m] >= demand[m];
}
"""


def _expected():
    """The transport optimum and plan by linprog: ship[p][m] flattened row by row."""
    c = np.array(COST).ravel()
    a_ub, b_ub = [], []
    for p in range(2):
        a_ub.append([1.0 if k // 3 == p else 0.0 for k in range(6)])
        b_ub.append(SUPPLY[p])
    for m in range(3):
        a_ub.append([-1.0 if k % 3 == m else 0.0 for k in range(6)])
        b_ub.append(-DEMAND[m])
    r = linprog(c, A_ub=a_ub, b_ub=b_ub, bounds=[(0, None)] * 6, method="highs")
    assert r.status == 0
    return r.fun, r.x.reshape(2, 3)


def _workbook(path: Path) -> None:
    """'cost data': markets across B1:D1, plants down A2:A3, costs B2:D3, demand in the named range
    Demand (B4:D4); supply down Sheet2!B2:B3 (named Supply, sheet-scoped to test that scope too)."""
    from openpyxl.workbook.defined_name import DefinedName

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "cost data"
    for j, m in enumerate(MARKETS):
        ws.cell(row=1, column=2 + j, value=m)
        ws.cell(row=4, column=2 + j, value=DEMAND[j])
    for i, p in enumerate(PLANTS):
        ws.cell(row=2 + i, column=1, value=p)
        for j in range(3):
            ws.cell(row=2 + i, column=2 + j, value=COST[i][j])
    ws2 = wb.create_sheet("Sheet2")
    for i, s in enumerate(SUPPLY):
        ws2.cell(row=2 + i, column=2, value=int(s))
    ws2["D1"] = "keep me"
    wb.defined_names["Demand"] = DefinedName("Demand", attr_text="'cost data'!$B$4:$D$4")
    ws2.defined_names["Supply"] = DefinedName("Supply", attr_text="Sheet2!$B$2:$B$3")
    ws3 = wb.create_sheet("lanes")
    for r, row in enumerate([("Lyon", "Milan", 12.5), ("Turin", "Nice", 8)]):
        for c, v in enumerate(row):
            ws3.cell(row=1 + r, column=1 + c, value=v)
    wb.save(path)


SHEET_DAT = """SheetConnection book("plan.xlsx");
Plants from SheetRead(book, "'cost data'!A2:A3");
Markets from SheetRead(book, "'cost data'!B1:D1");
cost from SheetRead(book, "'cost data'!B2:D3");
demand from SheetRead(book, "Demand");
supply from SheetRead(book, "Supply");
ship to SheetWrite(book, "'cost data'!B7:D8");
total to SheetWrite(book, "Sheet2!A5");
"""


def test_a_workbook_fills_sets_arrays_by_range_and_name_and_the_results_go_to_a_copy(tmp_path):
    book = tmp_path / "plan.xlsx"
    _workbook(book)
    before = book.read_bytes()
    (tmp_path / "plan.mod").write_text(TRANSPORT)
    (tmp_path / "plan.dat").write_text(SHEET_DAT)
    r = pyopl.solve(tmp_path / "plan.mod", tmp_path / "plan.dat")
    best, plan = _expected()
    assert r.status == "optimal", [(d.code, d.message) for d in r.diagnostics]
    assert r.objective == pytest.approx(best)
    assert book.read_bytes() == before  # the input workbook is never written
    copy = tmp_path / "plan.out" / "plan.xlsx"
    assert r.extra["published"] == [str(copy)]
    wb = openpyxl.load_workbook(copy)
    ws = wb["cost data"]
    got = [[ws.cell(row=7 + i, column=2 + j).value for j in range(3)] for i in range(2)]
    assert np.allclose(np.array(got, dtype=float), plan)
    assert wb["Sheet2"]["A5"].value == pytest.approx(best)
    assert wb["Sheet2"]["D1"].value == "keep me"  # the rest of the workbook is kept
    assert ws["B2"].value == COST[0][0]


def test_a_range_written_the_other_way_round_is_read_by_columns_and_rows_become_tuples(tmp_path):
    """A 3 x 2 array read from a 2 x 3 block is the block transposed (IBM: "OPL automatically
    determines whether the data must be read line by line or column by column"); a block of rows
    fills a tuple set and a one-dimensional array of tuples."""
    _workbook(tmp_path / "plan.xlsx")
    model = """{string} Markets = ...;
{string} Plants = ...;
float costT[Markets][Plants] = ...;
tuple Lane { string from; string to; float cap; }
{Lane} lanes = ...;
Lane byRow[1..2] = ...;
dvar float+ x;
minimize x;
subject to { x >= costT["Bern"]["Turin"] + sum(l in lanes) l.cap + byRow[2].cap; }
"""
    dat = """SheetConnection book("plan.xlsx");
Markets from SheetRead(book, "'cost data'!B1:D1");
Plants from SheetRead(book, "'cost data'!A2:A3");
costT from SheetRead(book, "'cost data'!B2:D3");
lanes from SheetRead(book, "lanes!A1:C2");
byRow from SheetRead(book, "lanes!A1:C2");
"""
    (tmp_path / "t.mod").write_text(model)
    (tmp_path / "t.dat").write_text(dat)
    r = pyopl.solve(tmp_path / "t.mod", tmp_path / "t.dat")
    assert r.objective == pytest.approx(COST[1][2] + 12.5 + 8 + 8)


@pytest.mark.parametrize("line, code, col, words", [
    ('Plants from SheetRead(book, "Prices!A2:A3");', "OPL0432", 29, 'no sheet "Prices"'),
    ('Plants from SheetRead(book, "Supplies");', "OPL0432", 29, 'no range named "Supplies"'),
    ('Plants from SheetRead(bok, "A2:A3");', "OPL0433", 23, "did you mean `book`"),
    ('Plants from SheetRead(book, "\'cost data\'!B2:D3");', "OPL0405", 29, "2 rows and 3 columns"),
])
def test_sheet_mistakes_are_diagnostics_at_the_dat_line(tmp_path, line, code, col, words):
    _workbook(tmp_path / "plan.xlsx")
    (tmp_path / "m.mod").write_text("{string} Plants = ...;\ndvar float+ x;\nminimize x;\n")
    (tmp_path / "m.dat").write_text('SheetConnection book("plan.xlsx");\n' + line + "\n")
    diags = pyopl.check(tmp_path / "m.mod", tmp_path / "m.dat")
    hits = [d for d in diags if d.code == code]
    assert hits, [(d.code, d.message) for d in diags]
    assert (hits[0].span.file.endswith("m.dat") and hits[0].line, hits[0].column) == (2, col)
    assert words in hits[0].message + " " + hits[0].help


def test_text_in_a_number_cell_is_a_type_error_naming_the_cell(tmp_path):
    _workbook(tmp_path / "plan.xlsx")
    (tmp_path / "m.mod").write_text("float v[1..3] = ...;\ndvar float+ x;\nminimize x;\n")
    (tmp_path / "m.dat").write_text('SheetConnection book("plan.xlsx");\nv from SheetRead(book, "\'cost data\'!A1:A3");\n')
    diags = pyopl.check(tmp_path / "m.mod", tmp_path / "m.dat")
    hit = next(d for d in diags if d.code == "OPL0403")
    assert hit.line == 2 and "empty cell" in hit.message and "row 1, column 1" in hit.message


def test_the_workbook_must_be_in_the_data_files_folder_and_data_text_opens_none(tmp_path):
    (tmp_path / "sub").mkdir()
    _workbook(tmp_path / "plan.xlsx")
    (tmp_path / "sub" / "m.mod").write_text("int n = ...;\ndvar float+ x;\nminimize x;\n")
    (tmp_path / "sub" / "m.dat").write_text('SheetConnection book("../plan.xlsx");\nn from SheetRead(book, "Sheet2!B2");\n')
    diags = pyopl.check(tmp_path / "sub" / "m.mod", tmp_path / "sub" / "m.dat")
    assert any(d.code == "OPL0432" and "outside" in d.message for d in diags)
    text = 'SheetConnection book("%s");\nn from SheetRead(book, "Sheet2!B2");\n' % (tmp_path / "plan.xlsx")
    diags = pyopl.check_text("int n = ...;\ndvar float+ x;\nminimize x;\n", text)
    assert any(d.code == "OPL0434" and "opens no files" in d.message for d in diags)


# ---------------------------------------------------------------- SQLite
DB_MODEL = TRANSPORT + """
tuple Flow { string plant; string market; float amount; }
{Flow} flows = {<p, m, ship[p][m]> | p in Plants, m in Markets : ship[p][m] > 1e-6};
"""

DB_DAT = """DBConnection db("sqlite", "plan.db");
Plants from DBRead(db, "SELECT name FROM plants ORDER BY name");
Markets from DBRead(db, "SELECT name FROM markets ORDER BY rowid");
supply from DBRead(db, "SELECT supply FROM plants ORDER BY name");
demand from DBRead(db, "SELECT demand FROM markets ORDER BY rowid");
cost from DBRead(db, "SELECT c1, c2, c3 FROM costs ORDER BY plant");
DBExecute(db, "DROP TABLE IF EXISTS result");
DBExecute(db, "CREATE TABLE result(plant TEXT, market TEXT, amount REAL)");
flows to DBUpdate(db, "INSERT INTO result(plant, market, amount) VALUES(?, ?, ?)");
"""


def _sqlite(path: Path) -> None:
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE plants(name TEXT, supply REAL)")
    con.executemany("INSERT INTO plants VALUES(?, ?)", list(zip(PLANTS, SUPPLY)))
    con.execute("CREATE TABLE markets(name TEXT, demand REAL)")
    con.executemany("INSERT INTO markets VALUES(?, ?)", list(zip(MARKETS, DEMAND)))
    con.execute("CREATE TABLE costs(plant TEXT, c1 REAL, c2 REAL, c3 REAL)")
    con.executemany("INSERT INTO costs VALUES(?, ?, ?, ?)", [(p, *c) for p, c in zip(PLANTS, COST)])
    con.commit()
    con.close()


def test_a_sqlite_file_fills_the_model_and_takes_the_flows(tmp_path):
    _sqlite(tmp_path / "plan.db")
    (tmp_path / "plan.mod").write_text(DB_MODEL)
    (tmp_path / "plan.dat").write_text(DB_DAT)
    r = pyopl.solve(tmp_path / "plan.mod", tmp_path / "plan.dat")
    best, plan = _expected()
    assert r.status == "optimal", [(d.code, d.message) for d in r.diagnostics]
    assert r.objective == pytest.approx(best)
    con = sqlite3.connect(tmp_path / "plan.db")
    rows = con.execute("SELECT plant, market, amount FROM result").fetchall()
    want = {(p, m): plan[i][j] for i, p in enumerate(PLANTS) for j, m in enumerate(MARKETS) if plan[i][j] > 1e-6}
    assert {(p, m): a for p, m, a in rows} == pytest.approx(want)
    assert con.execute("SELECT count(*) FROM plants").fetchone() == (2,)


def test_values_are_bound_never_formatted_into_sql(tmp_path):
    """A name with quotes and SQL in it reaches the table as it is: nothing is formatted into the statement."""
    con = sqlite3.connect(tmp_path / "q.db")
    con.execute("CREATE TABLE out(name TEXT, v REAL)")
    con.commit()
    con.close()
    evil = "O'Brien\"); DROP TABLE out; --"
    (tmp_path / "q.mod").write_text('{string} S = {"%s"};\ndvar float+ x[S] in 0..3;\nmaximize sum(s in S) x[s];\n'
                                    % evil.replace('"', '\\"'))
    (tmp_path / "q.dat").write_text('DBConnection db("sqlite", "q.db");\nx to DBUpdate(db, "INSERT INTO out(name, v) '
                                    'VALUES(?, ?)");\n')
    r = pyopl.solve(tmp_path / "q.mod", tmp_path / "q.dat")
    assert r.status == "optimal", [(d.code, d.message) for d in r.diagnostics]
    assert sqlite3.connect(tmp_path / "q.db").execute("SELECT name, v FROM out").fetchall() == [(evil, 3.0)]


def test_dbexecute_outside_the_declared_tables_is_refused_unless_allowed(tmp_path):
    _sqlite(tmp_path / "plan.db")
    (tmp_path / "plan.mod").write_text(DB_MODEL)
    dat = DB_DAT + 'DBExecute(db, "DROP TABLE plants");\n'
    (tmp_path / "plan.dat").write_text(dat)
    diags = pyopl.check(tmp_path / "plan.mod", tmp_path / "plan.dat")
    hit = next(d for d in diags if d.code == "OPL0435")
    assert (hit.line, hit.column) == (10, 15) and "`plants`" in hit.message and "--allow-db-writes" in hit.help
    with pytest.raises(pyopl.CompileError):
        pyopl.compile_model(tmp_path / "plan.mod", tmp_path / "plan.dat")
    r = pyopl.solve(tmp_path / "plan.mod", tmp_path / "plan.dat", allow_db_writes=True)
    assert r.status == "optimal"
    tables = {t for (t,) in sqlite3.connect(tmp_path / "plan.db").execute("SELECT name FROM sqlite_master")}
    assert tables == {"markets", "costs", "result"}


def test_the_cli_flag_allows_the_write(tmp_path):
    from pyopl.cli import main

    _sqlite(tmp_path / "plan.db")
    (tmp_path / "plan.mod").write_text(DB_MODEL)
    (tmp_path / "plan.dat").write_text(DB_DAT + 'DBExecute(db, "DELETE FROM costs");\n')
    args = ["solve", str(tmp_path / "plan.mod"), str(tmp_path / "plan.dat"), "--quiet"]
    assert main(args) == 1
    assert main(args + ["--allow-db-writes"]) == 0
    assert sqlite3.connect(tmp_path / "plan.db").execute("SELECT count(*) FROM costs").fetchone() == (0,)


@pytest.mark.parametrize("query, code, words", [
    ("SELECT name FROM plant", "OPL0432", "no such table: plant"),
    ("SELECT nam FROM plants", "OPL0432", "no such column: nam"),
    ("SELECT name, supply FROM plants", "OPL0405", "2 rows and 2 columns"),
    ("DELETE FROM plants", "OPL0434", "runs a query"),
])
def test_database_mistakes_are_diagnostics_at_the_query(tmp_path, query, code, words):
    _sqlite(tmp_path / "plan.db")
    (tmp_path / "m.mod").write_text("{string} Plants = ...;\ndvar float+ x;\nminimize x;\n")
    (tmp_path / "m.dat").write_text('DBConnection db("sqlite", "plan.db");\nPlants from DBRead(db, "%s");\n' % query)
    diags = pyopl.check(tmp_path / "m.mod", tmp_path / "m.dat")
    hit = next((d for d in diags if d.code == code), None)
    assert hit is not None, [(d.code, d.message) for d in diags]
    assert (hit.line, hit.column) == (2, 24) and words in hit.message
    assert sqlite3.connect(tmp_path / "plan.db").execute("SELECT count(*) FROM plants").fetchone() == (2,)


@pytest.mark.parametrize("query, words", [
    ("WITH a AS (SELECT 1) DELETE FROM plants RETURNING name", "deletes from `plants`"),
    ("WITH a AS (SELECT 1) INSERT INTO plants(name) SELECT 'x' RETURNING name", "inserts into `plants`"),
    ("WITH a AS (SELECT 1) UPDATE plants SET supply = 0 RETURNING name", "updates `plants`"),
])
def test_a_query_that_starts_like_a_read_cannot_change_the_database(tmp_path, query, words):
    """`WITH ... DELETE ... RETURNING` starts with WITH, as a read does: `pyopl check` (which writes
    nothing) emptied the table before DBRead was made read-only."""
    _sqlite(tmp_path / "plan.db")
    (tmp_path / "m.mod").write_text("{string} Plants = ...;\ndvar float+ x;\nminimize x;\n")
    (tmp_path / "m.dat").write_text('DBConnection db("sqlite", "plan.db");\nPlants from DBRead(db, "%s");\n' % query)
    with pytest.raises(pyopl.CompileError) as err:
        pyopl.solve(tmp_path / "m.mod", tmp_path / "m.dat")
    for diags in (pyopl.check(tmp_path / "m.mod", tmp_path / "m.dat"), err.value.diagnostics):
        hit = next((d for d in diags if d.code == "OPL0435"), None)
        assert hit is not None, [(d.code, d.message) for d in diags]
        assert (hit.line, hit.column) == (2, 24) and words in hit.message
    con = sqlite3.connect(tmp_path / "plan.db")
    assert con.execute("SELECT name, supply FROM plants ORDER BY name").fetchall() == sorted(zip(PLANTS, SUPPLY))


def test_a_sqlalchemy_sqlite_url_keeps_to_the_data_files_folder(tmp_path):
    """`DBConnection db("x", "sqlite:////elsewhere/a.db")` went to SQLAlchemy, which opened (or created
    empty) a database file anywhere; such a URL now follows the "sqlite" driver's folder rule."""
    (tmp_path / "sub").mkdir()
    _sqlite(tmp_path / "sub" / "plan.db")
    _sqlite(tmp_path / "outside.db")
    (tmp_path / "sub" / "m.mod").write_text("{string} Plants = ...;\ndvar float+ x;\nminimize x;\n")
    read = '\nPlants from DBRead(db, "SELECT name FROM plants ORDER BY name");\n'
    for url in ("sqlite:///%s" % (tmp_path / "outside.db"), "sqlite:///../outside.db", "sqlite+pysqlite:///../outside.db",
                "sqlite:///%s" % (tmp_path / "created.db")):
        (tmp_path / "sub" / "m.dat").write_text('DBConnection db("sqlalchemy", "%s");%s' % (url, read))
        diags = pyopl.check(tmp_path / "sub" / "m.mod", tmp_path / "sub" / "m.dat")
        hit = next((d for d in diags if d.code == "OPL0432"), None)
        assert hit is not None and (hit.line, hit.column) == (1, 31), (url, [(d.code, d.message) for d in diags])
        assert "outside the data file's folder" in hit.message
    assert not (tmp_path / "created.db").exists()
    (tmp_path / "sub" / "m.dat").write_text('DBConnection db("sqlalchemy", "sqlite:///plan.db");%s' % read)
    r = pyopl.solve(tmp_path / "sub" / "m.mod", tmp_path / "sub" / "m.dat")
    assert r.status == "optimal" and r.objective == 0


def test_a_recursive_read_query_still_reads(tmp_path):
    _sqlite(tmp_path / "plan.db")
    (tmp_path / "m.mod").write_text("{int} N = ...;\ndvar float+ x;\nminimize x;\n")
    (tmp_path / "m.dat").write_text('DBConnection db("sqlite", "plan.db");\nN from DBRead(db, "WITH RECURSIVE c(n) AS '
                                    '(SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 4) SELECT n FROM c");\n')
    r = pyopl.solve(tmp_path / "m.mod", tmp_path / "m.dat")
    assert r.status == "optimal", [(d.code, d.message) for d in r.diagnostics]


# ---------------------------------------------------------------- CSV
def test_csv_with_a_header_fills_a_tuple_set_by_field_name(tmp_path):
    (tmp_path / "rooms.csv").write_text("cap,name\n2,A\n3,B\n")
    (tmp_path / "r.mod").write_text("tuple Room { string name; int cap; }\n{Room} rooms = ...;\ndvar int+ x[rooms];\n"
                                    "maximize sum(r in rooms) x[r];\nsubject to { forall(r in rooms) x[r] <= r.cap; }\n")
    (tmp_path / "r.dat").write_text('CSVConnection c("rooms.csv?firstIsHeader=true", "");\nrooms from CSVRead(c, "");\n')
    r = pyopl.solve(tmp_path / "r.mod", tmp_path / "r.dat")
    assert r.objective == 5
    (tmp_path / "rooms.csv").write_text("cap,name\ntwo,A\n")
    diags = pyopl.check(tmp_path / "r.mod", tmp_path / "r.dat")
    hit = next(d for d in diags if d.code == "OPL0403")
    assert hit.line == 2 and '"two"' in hit.message and "row 1, column 1" in hit.message


# ---------------------------------------------------------------- PostgreSQL
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _pg_bin() -> Path | None:
    for d in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (d / "initdb").exists():
            return d
    found = shutil.which("initdb")
    return Path(found).parent if found else None


@pytest.fixture(scope="module")
def postgres():
    """A PostgreSQL server of our own in a temporary folder (Debian's `postgresql` package; as root it
    runs as the `postgres` user), on a free port of 127.0.0.1, with trust authentication; its
    SQLAlchemy URL. Skipped, saying why, where it cannot start."""
    pytest.importorskip("sqlalchemy", reason="SQLAlchemy (the `databases` extra, in `dev`) is not installed")
    pytest.importorskip("pg8000", reason="pg8000 (PostgreSQL's pure-Python driver, in `dev`) is not installed")
    bindir = _pg_bin()
    if bindir is None:
        pytest.skip("PostgreSQL is not installed (Debian: apt-get install postgresql); the PostgreSQL tests need it")
    run_as: list[str] = []
    folder = tempfile.mkdtemp(prefix="pyopl-pg-")
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root
        if shutil.which("runuser") is None:
            pytest.skip("running as root without `runuser`: PostgreSQL cannot be started as another user")
        run_as = ["runuser", "-u", "postgres", "--"]
        shutil.chown(folder, "postgres")
    data, port = os.path.join(folder, "data"), _free_port()
    try:
        subprocess.run(run_as + [str(bindir / "initdb"), "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"],
                       check=True, capture_output=True, timeout=120)
        subprocess.run(run_as + [str(bindir / "pg_ctl"), "-D", data, "-w", "-t", "60", "-l", os.path.join(folder, "log"),
                                 "-o", "-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off" % (port, folder), "start"],
                       check=True, capture_output=True, timeout=90)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as e:
        shutil.rmtree(folder, ignore_errors=True)
        pytest.skip("a PostgreSQL server could not be started here (%s)" % (getattr(e, "stderr", b"") or e))
    try:
        yield "postgresql+pg8000://postgres@127.0.0.1:%d/postgres" % port
    finally:
        subprocess.run(run_as + [str(bindir / "pg_ctl"), "-D", data, "-m", "immediate", "stop"], capture_output=True,
                       timeout=60)
        shutil.rmtree(folder, ignore_errors=True)


def test_a_postgresql_database_fills_the_model_and_takes_the_flows(tmp_path, postgres):
    import sqlalchemy

    engine = sqlalchemy.create_engine(postgres)
    with engine.begin() as con:
        for stmt in ("DROP TABLE IF EXISTS plants, markets, costs, result",
                     "CREATE TABLE plants(name TEXT, supply DOUBLE PRECISION)",
                     "CREATE TABLE markets(id INT, name TEXT, demand DOUBLE PRECISION)",
                     "CREATE TABLE costs(plant TEXT, c1 DOUBLE PRECISION, c2 DOUBLE PRECISION, c3 DOUBLE PRECISION)"):
            con.execute(sqlalchemy.text(stmt))
        for p, s in zip(PLANTS, SUPPLY):
            con.execute(sqlalchemy.text("INSERT INTO plants VALUES(:p, :s)"), {"p": p, "s": s})
        for k, (m, d) in enumerate(zip(MARKETS, DEMAND)):
            con.execute(sqlalchemy.text("INSERT INTO markets VALUES(:k, :m, :d)"), {"k": k, "m": m, "d": d})
        for p, c in zip(PLANTS, COST):
            con.execute(sqlalchemy.text("INSERT INTO costs VALUES(:p, :a, :b, :c)"), {"p": p, "a": c[0], "b": c[1], "c": c[2]})
    dat = DB_DAT.replace('DBConnection db("sqlite", "plan.db");', 'DBConnection db("postgresql", "%s");' % postgres)
    dat = dat.replace("ORDER BY rowid", "ORDER BY id").replace("amount REAL", "amount DOUBLE PRECISION")
    (tmp_path / "plan.mod").write_text(DB_MODEL)
    (tmp_path / "plan.dat").write_text(dat)
    r = pyopl.solve(tmp_path / "plan.mod", tmp_path / "plan.dat")
    best, plan = _expected()
    assert r.status == "optimal", [(d.code, d.message) for d in r.diagnostics]
    assert r.objective == pytest.approx(best)
    with engine.connect() as con:
        rows = con.execute(sqlalchemy.text("SELECT plant, market, amount FROM result")).fetchall()
    want = {(p, m): plan[i][j] for i, p in enumerate(PLANTS) for j, m in enumerate(MARKETS) if plan[i][j] > 1e-6}
    assert {(p, m): a for p, m, a in rows} == pytest.approx(want)
    (tmp_path / "plan.dat").write_text(dat.replace("FROM plants", "FROM plantz", 1))
    diags = pyopl.check(tmp_path / "plan.mod", tmp_path / "plan.dat")
    hit = next(d for d in diags if d.code == "OPL0432")
    assert hit.line == 2 and "plantz" in hit.message
    engine.dispose()


def test_check_reads_the_sources_and_writes_nothing(tmp_path):
    """`pyopl check` (and every analysis) reads the data sources to check the data, but never runs
    a write: no workbook copy, no DBExecute, no DBUpdate (docs/safety.md)."""
    from pyopl.cli import main

    _workbook(tmp_path / "plan.xlsx")
    _sqlite(tmp_path / "plan.db")
    (tmp_path / "plan.mod").write_text(DB_MODEL)
    (tmp_path / "sheet.dat").write_text(SHEET_DAT)
    (tmp_path / "db.dat").write_text(DB_DAT.replace("DROP TABLE IF EXISTS result", "DROP TABLE IF EXISTS costs")
                                     .replace("CREATE TABLE result(", "CREATE TABLE costs(")
                                     .replace("INSERT INTO result(", "INSERT INTO costs("))
    before = (tmp_path / "plan.db").read_bytes()
    assert main(["check", str(tmp_path / "plan.mod"), str(tmp_path / "sheet.dat")]) == 0
    assert main(["check", str(tmp_path / "plan.mod"), str(tmp_path / "db.dat")]) == 0  # costs is declared
    assert not (tmp_path / "plan.out").exists()
    assert (tmp_path / "plan.db").read_bytes() == before


def test_the_report_names_the_copy_written(tmp_path, capsys):
    from pyopl.cli import main

    _workbook(tmp_path / "plan.xlsx")
    (tmp_path / "plan.mod").write_text(TRANSPORT)
    (tmp_path / "plan.dat").write_text(SHEET_DAT)
    out_dir = tmp_path / "results"
    out_dir.mkdir()
    assert main(["solve", str(tmp_path / "plan.mod"), str(tmp_path / "plan.dat"), "--output-dir", str(out_dir),
                 "--quiet"]) == 0
    assert "written: %s" % (out_dir / "plan.xlsx") in capsys.readouterr().out
    assert (out_dir / "plan.xlsx").exists() and not (tmp_path / "plan.out").exists()
