// Transportation (the model of ../transport.mod), its data read from a spreadsheet, a database
// or CSV files, and its plan written back: see sheet.dat, sqlite.dat and csv.dat, and
// docs/data-sources.md. `python make_sources.py` (re)makes transport.xlsx and transport.db.
{string} Plants = ...;
{string} Markets = ...;
float supply[Plants] = ...;          // units available at each plant
float demand[Markets] = ...;         // units required at each market
float cost[Plants][Markets] = ...;   // cost of shipping one unit

dvar float+ ship[Plants][Markets];   // units shipped from plant p to market m
dexpr float total = sum(p in Plants, m in Markets) cost[p][m] * ship[p][m];

minimize total;

subject to {
  forall(p in Plants)
    ctSupply: sum(m in Markets) ship[p][m] <= supply[p];
  forall(m in Markets)
    ctDemand: sum(p in Plants) ship[p][m] >= demand[m];
}

// The plan as rows (computed from the solution: a post-processing element), for DBUpdate.
tuple Flow { string plant; string market; float amount; }
{Flow} flows = {<p, m, ship[p][m]> | p in Plants, m in Markets : ship[p][m] > 1e-6};
