"""Make the data sources of this example from the numbers of ../transport.dat: transport.xlsx
(needs openpyxl: pip install "pyopl[sheets]") and transport.db (SQLite). Run it from anywhere:
``python examples/data-sources/make_sources.py [FOLDER]`` (default: this file's folder)."""
from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

PLANTS = ["Lyon", "Porto", "Gdansk"]
MARKETS = ["Berlin", "Madrid", "Milan", "Oslo"]
SUPPLY = [400, 300, 350]
DEMAND = [250, 200, 220, 180]
COST = [[4.0, 6.5, 2.5, 8.0], [7.0, 2.0, 5.5, 9.5], [3.0, 9.0, 7.5, 4.5]]


def make_workbook(path: Path) -> None:
    """Sheet "costs": markets across B1:E1, plants down A2:A4, costs in B2:E4, supply in G2:G4 (named
    Supply), demand in B6:E6 (named Demand); an empty sheet "plan" for the results."""
    import openpyxl
    from openpyxl.workbook.defined_name import DefinedName

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "costs"
    ws["G1"], ws["A6"] = "supply", "demand"
    for j, m in enumerate(MARKETS):
        ws.cell(row=1, column=2 + j, value=m)
        ws.cell(row=6, column=2 + j, value=DEMAND[j])
    for i, p in enumerate(PLANTS):
        ws.cell(row=2 + i, column=1, value=p)
        ws.cell(row=2 + i, column=7, value=SUPPLY[i])
        for j in range(len(MARKETS)):
            ws.cell(row=2 + i, column=2 + j, value=COST[i][j])
    wb.defined_names["Supply"] = DefinedName("Supply", attr_text="costs!$G$2:$G$4")
    wb.defined_names["Demand"] = DefinedName("Demand", attr_text="costs!$B$6:$E$6")
    plan = wb.create_sheet("plan")
    plan["A6"] = "total cost"
    for j, m in enumerate(MARKETS):
        plan.cell(row=1, column=2 + j, value=m)
    for i, p in enumerate(PLANTS):
        plan.cell(row=2 + i, column=1, value=p)
    wb.save(path)


def make_database(path: Path) -> None:
    """Tables plants(id, name, supply), markets(id, name, demand), costs(plant, market, cost)."""
    path.unlink(missing_ok=True)
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE plants(id INTEGER, name TEXT, supply REAL)")
    con.execute("CREATE TABLE markets(id INTEGER, name TEXT, demand REAL)")
    con.execute("CREATE TABLE costs(plant TEXT, market TEXT, cost REAL)")
    con.executemany("INSERT INTO plants VALUES(?, ?, ?)", [(i, p, s) for i, (p, s) in enumerate(zip(PLANTS, SUPPLY))])
    con.executemany("INSERT INTO markets VALUES(?, ?, ?)", [(i, m, d) for i, (m, d) in enumerate(zip(MARKETS, DEMAND))])
    con.executemany("INSERT INTO costs VALUES(?, ?, ?)",
                    [(p, m, COST[i][j]) for i, p in enumerate(PLANTS) for j, m in enumerate(MARKETS)])
    con.commit()
    con.close()


if __name__ == "__main__":
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent
    make_workbook(folder / "transport.xlsx")
    make_database(folder / "transport.db")
    print("wrote", folder / "transport.xlsx", "and", folder / "transport.db")
