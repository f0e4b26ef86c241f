"""Generated benchmark models of growing size, and the same problems built directly as CSC arrays.

Each generator returns a :class:`Case`: OPL model text, ``.dat`` text, and a
``direct()`` function that builds the identical problem (same column and row
order, same coefficients) straight from the NumPy data, as a user of
``highspy`` would, without any modelling layer.  The benchmark compares our
IR with the direct arrays, so the baseline is checked, not assumed.

Sizes are chosen so that the number of nonzeros grows by about 10x per step.
The data are random but fixed (``numpy.random.default_rng(seed)``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np
import scipy.sparse as sp

INF = float("inf")


@dataclass
class Direct:
    """A problem in HiGHS's terms: ``min/max c@x``, ``rl <= A x <= ru``, ``lo <= x <= hi``."""

    sense: int  # 1 minimise, -1 maximise
    c: np.ndarray
    col_lower: np.ndarray
    col_upper: np.ndarray
    integrality: np.ndarray  # int32, 1 = integer
    A: sp.csc_array
    row_lower: np.ndarray
    row_upper: np.ndarray


@dataclass
class Case:
    family: str
    size: str  # e.g. "100x100"
    mod: str
    dat: str
    direct: Callable[[], Direct]
    pyomo: Callable | None = None  # (pyomo module) -> ConcreteModel, built from the same data
    linopy: Callable | None = None  # (linopy module) -> linopy.Model
    pyoframe: Callable | None = None  # (pyoframe module, polars module) -> pyoframe.Model on HiGHS


def fmt_vector(v: np.ndarray) -> str:
    """``[1.5, 2, ...]`` with ``repr``-exact floats (what ``float(text)`` reads back bit for bit)."""
    return "[" + ", ".join(map(repr, v.tolist())) + "]"


def fmt_matrix(a: np.ndarray) -> str:
    return "[\n" + ",\n".join("  " + fmt_vector(row) for row in a) + "\n]"


def _csc(rows: np.ndarray, cols: np.ndarray, vals: np.ndarray, shape: tuple[int, int]) -> sp.csc_array:
    A = sp.csc_array((vals.astype(float), (rows.astype(np.int64), cols.astype(np.int64))), shape=shape)
    A.sum_duplicates()
    A.sort_indices()
    return A


# ---------------------------------------------------------------------- dense assignment n x n
ASSIGNMENT_MOD = """\
int n = ...;
range R = 1..n;
float cost[R][R] = ...;

dvar boolean x[R][R];

minimize sum(i in R, j in R) cost[i][j] * x[i][j];

subject to {
  forall(i in R)
    ctRow: sum(j in R) x[i][j] == 1;
  forall(j in R)
    ctCol: sum(i in R) x[i][j] == 1;
}
"""


def assignment(n: int, seed: int = 1) -> Case:
    rng = np.random.default_rng(seed)
    cost = rng.integers(1, 100, size=(n, n)).astype(float)
    dat = "n = %d;\ncost = %s;\n" % (n, fmt_matrix(cost))

    def direct() -> Direct:
        j = np.arange(n * n)  # column of x[i][j] is i*n + j
        rows = np.concatenate([j // n, n + j % n])
        A = _csc(rows, np.concatenate([j, j]), np.ones(2 * n * n), (2 * n, n * n))
        ones = np.ones(2 * n)
        return Direct(1, cost.ravel(), np.zeros(n * n), np.ones(n * n), np.ones(n * n, dtype=np.int32), A, ones, ones)

    def pyomo(pyo):
        m = pyo.ConcreteModel()
        m.R = pyo.RangeSet(1, n)
        m.x = pyo.Var(m.R, m.R, domain=pyo.Binary)
        m.obj = pyo.Objective(expr=sum(cost[i - 1, j - 1] * m.x[i, j] for i in m.R for j in m.R))
        m.row = pyo.Constraint(m.R, rule=lambda m, i: sum(m.x[i, j] for j in m.R) == 1)
        m.col = pyo.Constraint(m.R, rule=lambda m, j: sum(m.x[i, j] for i in m.R) == 1)
        return m

    def linopy(lp):
        import xarray as xr

        m = lp.Model()
        c = xr.DataArray(cost, dims=["i", "j"])
        x = m.add_variables(binary=True, coords=[range(n), range(n)], dims=["i", "j"], name="x")
        m.add_objective((c * x).sum())
        m.add_constraints(x.sum("j") == 1, name="row")
        m.add_constraints(x.sum("i") == 1, name="col")
        return m

    def pyoframe(pf, pl):
        i, j = np.repeat(np.arange(n), n), np.tile(np.arange(n), n)
        m = pf.Model("highs")
        m.x = pf.Variable(pl.DataFrame({"i": i, "j": j}), vtype=pf.VType.BINARY)
        m.minimize = (pf.Param(pl.DataFrame({"i": i, "j": j, "cost": cost.ravel()})) * m.x).sum()
        m.row = m.x.sum("j") == 1
        m.col = m.x.sum("i") == 1
        return m

    return Case("assignment", "%dx%d" % (n, n), ASSIGNMENT_MOD, dat, direct, pyomo, linopy, pyoframe)


# ---------------------------------------------------------------------- transportation m x n
TRANSPORT_MOD = """\
int m = ...;
int n = ...;
range Plants = 1..m;
range Markets = 1..n;
float supply[Plants] = ...;
float demand[Markets] = ...;
float cost[Plants][Markets] = ...;

dvar float+ ship[Plants][Markets];

minimize sum(p in Plants, k in Markets) cost[p][k] * ship[p][k];

subject to {
  forall(p in Plants)
    ctSupply: sum(k in Markets) ship[p][k] <= supply[p];
  forall(k in Markets)
    ctDemand: sum(p in Plants) ship[p][k] >= demand[k];
}
"""


def transport(m: int, n: int, seed: int = 2) -> Case:
    rng = np.random.default_rng(seed)
    demand = rng.integers(10, 100, size=n).astype(float)
    supply = np.full(m, np.ceil(demand.sum() * 1.2 / m))
    cost = np.round(rng.uniform(1, 50, size=(m, n)), 2)
    dat = "m = %d;\nn = %d;\nsupply = %s;\ndemand = %s;\ncost = %s;\n" % (
        m, n, fmt_vector(supply), fmt_vector(demand), fmt_matrix(cost))

    def direct() -> Direct:
        j = np.arange(m * n)
        rows = np.concatenate([j // n, m + j % n])
        A = _csc(rows, np.concatenate([j, j]), np.ones(2 * m * n), (m + n, m * n))
        rl = np.concatenate([np.full(m, -INF), demand])
        ru = np.concatenate([supply, np.full(n, INF)])
        return Direct(1, cost.ravel(), np.zeros(m * n), np.full(m * n, INF), np.zeros(m * n, dtype=np.int32), A, rl, ru)

    def pyomo(pyo):
        mdl = pyo.ConcreteModel()
        mdl.P = pyo.RangeSet(1, m)
        mdl.K = pyo.RangeSet(1, n)
        mdl.x = pyo.Var(mdl.P, mdl.K, domain=pyo.NonNegativeReals)
        mdl.obj = pyo.Objective(expr=sum(cost[p - 1, k - 1] * mdl.x[p, k] for p in mdl.P for k in mdl.K))
        mdl.sup = pyo.Constraint(mdl.P, rule=lambda md, p: sum(md.x[p, k] for k in md.K) <= supply[p - 1])
        mdl.dem = pyo.Constraint(mdl.K, rule=lambda md, k: sum(md.x[p, k] for p in md.P) >= demand[k - 1])
        return mdl

    def linopy(lp):
        import xarray as xr

        mdl = lp.Model()
        x = mdl.add_variables(lower=0, coords=[range(m), range(n)], dims=["p", "k"], name="ship")
        mdl.add_objective((xr.DataArray(cost, dims=["p", "k"]) * x).sum())
        mdl.add_constraints(x.sum("k") <= xr.DataArray(supply, dims=["p"]), name="sup")
        mdl.add_constraints(x.sum("p") >= xr.DataArray(demand, dims=["k"]), name="dem")
        return mdl

    def pyoframe(pf, pl):
        p, k = np.repeat(np.arange(m), n), np.tile(np.arange(n), m)
        mdl = pf.Model("highs")
        mdl.ship = pf.Variable(pl.DataFrame({"p": p, "k": k}), lb=0)
        mdl.minimize = (pf.Param(pl.DataFrame({"p": p, "k": k, "cost": cost.ravel()})) * mdl.ship).sum()
        mdl.sup = mdl.ship.sum("k") <= pf.Param(pl.DataFrame({"p": np.arange(m), "supply": supply}))
        mdl.dem = mdl.ship.sum("p") >= pf.Param(pl.DataFrame({"k": np.arange(n), "demand": demand}))
        return mdl

    return Case("transport", "%dx%d" % (m, n), TRANSPORT_MOD, dat, direct, pyomo, linopy, pyoframe)


# ---------------------------------------------------------------------- capacitated facility location
FACILITY_MOD = """\
{string} Warehouses = ...;
{string} Customers = ...;
float fixedCost[Warehouses] = ...;
float capacity[Warehouses] = ...;
float demand[Customers] = ...;
float unitCost[Warehouses][Customers] = ...;

dvar boolean open[Warehouses];
dvar float+ serve[Warehouses][Customers];

minimize sum(w in Warehouses) fixedCost[w] * open[w]
       + sum(w in Warehouses, c in Customers) unitCost[w][c] * serve[w][c];

subject to {
  forall(c in Customers)
    ctDemand: sum(w in Warehouses) serve[w][c] == demand[c];
  forall(w in Warehouses)
    ctCapacity: sum(c in Customers) serve[w][c] <= capacity[w] * open[w];
  forall(w in Warehouses, c in Customers)
    ctLink: serve[w][c] <= demand[c] * open[w];
}
"""


def facility(nw: int, nc: int, seed: int = 3) -> Case:
    rng = np.random.default_rng(seed)
    W = ["W%d" % i for i in range(nw)]
    C = ["C%d" % i for i in range(nc)]
    fixed = rng.integers(100, 1000, size=nw).astype(float)
    demand = rng.integers(1, 20, size=nc).astype(float)
    capacity = np.full(nw, np.ceil(demand.sum() * 3 / nw))
    ucost = np.round(rng.uniform(1, 30, size=(nw, nc)), 2)
    names = lambda xs: "{" + ", ".join('"%s"' % x for x in xs) + "}"
    dat = "Warehouses = %s;\nCustomers = %s;\nfixedCost = %s;\ncapacity = %s;\ndemand = %s;\nunitCost = %s;\n" % (
        names(W), names(C), fmt_vector(fixed), fmt_vector(capacity), fmt_vector(demand), fmt_matrix(ucost))

    def direct() -> Direct:
        # columns: open[0..nw), then serve[w][c] at nw + w*nc + c
        s = np.arange(nw * nc)
        w, c = s // nc, s % nc
        scol = nw + s
        r_dem, r_cap, r_link = c, nc + w, nc + nw + s
        rows = np.concatenate([r_dem, r_cap, np.arange(nw) + nc, r_link, r_link])
        cols = np.concatenate([scol, scol, np.arange(nw), scol, w])
        vals = np.concatenate([np.ones(nw * nc), np.ones(nw * nc), -capacity, np.ones(nw * nc), -demand[c]])
        mrows = nc + nw + nw * nc
        A = _csc(rows, cols, vals, (mrows, nw + nw * nc))
        rl = np.concatenate([demand, np.full(nw + nw * nc, -INF)])
        ru = np.concatenate([demand, np.zeros(nw + nw * nc)])
        n = nw + nw * nc
        integ = np.zeros(n, dtype=np.int32)
        integ[:nw] = 1
        upper = np.full(n, INF)
        upper[:nw] = 1.0
        return Direct(1, np.concatenate([fixed, ucost.ravel()]), np.zeros(n), upper, integ, A, rl, ru)

    def linopy(lp):
        import xarray as xr

        m = lp.Model()
        opened = m.add_variables(binary=True, coords=[range(nw)], dims=["w"], name="open")
        serve = m.add_variables(lower=0, coords=[range(nw), range(nc)], dims=["w", "c"], name="serve")
        m.add_objective((xr.DataArray(fixed, dims=["w"]) * opened).sum()
                        + (xr.DataArray(ucost, dims=["w", "c"]) * serve).sum())
        m.add_constraints(serve.sum("w") == xr.DataArray(demand, dims=["c"]), name="demand")
        m.add_constraints(serve.sum("c") - xr.DataArray(capacity, dims=["w"]) * opened <= 0, name="capacity")
        m.add_constraints(serve - xr.DataArray(demand, dims=["c"]) * opened <= 0, name="link")
        return m

    return Case("facility", "%dx%d" % (nw, nc), FACILITY_MOD, dat, direct, linopy=linopy)


# ---------------------------------------------------------------------- tuple-set network flow
NETFLOW_MOD = """\
{int} Nodes = ...;
tuple Arc {
  int src;
  int dst;
  float cost;
  float cap;
}
{Arc} Arcs = ...;
float supply[Nodes] = ...;

dvar float+ flow[Arcs];

minimize sum(a in Arcs) a.cost * flow[a];

subject to {
  forall(a in Arcs)
    ctCap: flow[a] <= a.cap;
  forall(v in Nodes)
    ctBalance: sum(a in Arcs : a.src == v) flow[a] - sum(a in Arcs : a.dst == v) flow[a] == supply[v];
}
"""


def netflow(nodes: int, degree: int = 8, seed: int = 4) -> Case:
    """A random sparse digraph: ``degree`` out-arcs per node (distinct heads), one source and one sink."""
    rng = np.random.default_rng(seed)
    src = np.repeat(np.arange(nodes), degree)
    off = np.stack([rng.choice(nodes - 1, size=degree, replace=False) + 1 for _ in range(nodes)]).ravel()
    dst = (src + off) % nodes
    cost = rng.integers(1, 20, size=src.size).astype(float)
    cap = rng.integers(5, 50, size=src.size).astype(float)
    supply = np.zeros(nodes)
    supply[0], supply[-1] = 10.0, -10.0
    arcs = ",\n".join("  <%d, %d, %r, %r>" % t for t in zip(src.tolist(), dst.tolist(), cost.tolist(), cap.tolist()))
    dat = "Nodes = {%s};\nArcs = {\n%s\n};\nsupply = %s;\n" % (
        ", ".join(map(str, range(nodes))), arcs, fmt_vector(supply))

    def direct() -> Direct:
        na = src.size
        a = np.arange(na)
        rows = np.concatenate([a, na + src, na + dst])
        cols = np.concatenate([a, a, a])
        vals = np.concatenate([np.ones(na), np.ones(na), -np.ones(na)])
        A = _csc(rows, cols, vals, (na + nodes, na))
        rl = np.concatenate([np.full(na, -INF), supply])
        ru = np.concatenate([cap, supply])
        return Direct(1, cost, np.zeros(na), np.full(na, INF), np.zeros(na, dtype=np.int32), A, rl, ru)

    def linopy(lp):
        import xarray as xr

        m = lp.Model()
        flow = m.add_variables(lower=0, coords=[range(src.size)], dims=["a"], name="flow")
        m.add_objective((xr.DataArray(cost, dims=["a"]) * flow).sum())
        m.add_constraints(flow <= xr.DataArray(cap, dims=["a"]), name="cap")
        out = flow.groupby(xr.DataArray(src, dims=["a"], name="v")).sum()
        into = flow.groupby(xr.DataArray(dst, dims=["a"], name="v")).sum()
        m.add_constraints(out - into == xr.DataArray(supply, coords=[np.arange(nodes)], dims=["v"]), name="balance")
        return m

    return Case("netflow", "%d nodes" % nodes, NETFLOW_MOD, dat, direct, linopy=linopy)


# ---------------------------------------------------------------------- multi-period production plan
PRODUCTION_MOD = """\
int nbPeriods = ...;
range Periods = 1..nbPeriods;
{string} Products = ...;
float demand[Products][Periods] = ...;
float prodCost[Products] = ...;
float holdCost[Products] = ...;
float hoursPerUnit[Products] = ...;
float capacityHours[Periods] = ...;
float initialStock[Products] = ...;

dvar float+ produce[Products][Periods];
dvar float+ stock[Products][Periods];

minimize sum(p in Products, t in Periods) (prodCost[p] * produce[p][t] + holdCost[p] * stock[p][t]);

subject to {
  forall(p in Products)
    ctFirstBalance: initialStock[p] + produce[p][1] - demand[p][1] == stock[p][1];
  forall(p in Products, t in Periods : t > 1)
    ctBalance: stock[p][t-1] + produce[p][t] - demand[p][t] == stock[p][t];
  forall(t in Periods)
    ctCapacity: sum(p in Products) hoursPerUnit[p] * produce[p][t] <= capacityHours[t];
}
"""


def production(nprod: int, nper: int, seed: int = 5) -> Case:
    rng = np.random.default_rng(seed)
    P = ["P%d" % i for i in range(nprod)]
    demand = rng.integers(0, 50, size=(nprod, nper)).astype(float)
    pcost = rng.integers(5, 20, size=nprod).astype(float)
    hcost = rng.integers(1, 3, size=nprod).astype(float)
    hours = np.round(rng.uniform(0.5, 2.0, size=nprod), 2)
    caph = np.full(nper, np.ceil((hours[:, None] * demand).sum(axis=0).max() * 1.5))
    init = np.zeros(nprod)
    dat = ("nbPeriods = %d;\nProducts = {%s};\ndemand = %s;\nprodCost = %s;\nholdCost = %s;\n"
           "hoursPerUnit = %s;\ncapacityHours = %s;\ninitialStock = %s;\n") % (
        nper, ", ".join('"%s"' % p for p in P), fmt_matrix(demand), fmt_vector(pcost), fmt_vector(hcost),
        fmt_vector(hours), fmt_vector(caph), fmt_vector(init))

    def direct() -> Direct:
        N = nprod * nper
        k = np.arange(N)
        p, t = k // nper, k % nper
        prod_col, stock_col = k, N + k
        # rows: first balance per p (nprod), balance per (p, t>0) in p-major order, capacity per t
        first = np.arange(nprod)
        later = k[t > 0]
        bal_row = nprod + np.arange(later.size)
        cap_row = nprod + later.size + t
        rows = np.concatenate([first, first, bal_row, bal_row, bal_row, cap_row])
        cols = np.concatenate([prod_col[first * nper], stock_col[first * nper], stock_col[later - 1],
                               prod_col[later], stock_col[later], prod_col])
        vals = np.concatenate([np.ones(nprod), -np.ones(nprod), np.ones(later.size), np.ones(later.size),
                               -np.ones(later.size), hours[p]])
        mrows = nprod + later.size + nper
        A = _csc(rows, cols, vals, (mrows, 2 * N))
        eq = np.concatenate([demand[:, 0] - init, demand.ravel()[later]])
        rl = np.concatenate([eq, np.full(nper, -INF)])
        ru = np.concatenate([eq, caph])
        c = np.concatenate([pcost[p], hcost[p]])
        return Direct(1, c, np.zeros(2 * N), np.full(2 * N, INF), np.zeros(2 * N, dtype=np.int32), A, rl, ru)

    def linopy(lp):
        import xarray as xr

        m = lp.Model()
        coords = [range(nprod), range(nper)]
        produce = m.add_variables(lower=0, coords=coords, dims=["p", "t"], name="produce")
        stock = m.add_variables(lower=0, coords=coords, dims=["p", "t"], name="stock")
        m.add_objective((xr.DataArray(pcost, dims=["p"]) * produce).sum()
                        + (xr.DataArray(hcost, dims=["p"]) * stock).sum())
        rhs = demand.copy()
        rhs[:, 0] -= init  # the first period starts from the initial stock (stock.shift has no term there)
        m.add_constraints(stock.shift(t=1).fillna(0) + produce - stock == xr.DataArray(rhs, dims=["p", "t"]), name="balance")
        m.add_constraints((xr.DataArray(hours, dims=["p"]) * produce).sum("p") <= xr.DataArray(caph, dims=["t"]),
                          name="capacity")
        return m

    return Case("production", "%dx%d" % (nprod, nper), PRODUCTION_MOD, dat, direct, linopy=linopy)


# ---------------------------------------------------------------------- subtour elimination over computed subsets
SUBTOUR_MOD = """\
int n = ...;
range Nodes = 1..n;
tuple Edge {
  int i;
  int j;
}
{Edge} Edges = ...;
float dist[Edges] = ...;
range K = 1..ftoi(pow(2, n)) - 2;
{int} S[k in K] = {v | v in Nodes : (k div ftoi(pow(2, ord(Nodes, v)))) mod 2 == 1};

dvar boolean x[Edges];

minimize sum(e in Edges) dist[e] * x[e];

subject to {
  forall(v in Nodes)
    ctDegree: sum(e in Edges : e.i == v || e.j == v) x[e] == 2;
  forall(k in K)
    ctSubtour: sum(e in Edges : e.i in S[k] && e.j in S[k]) x[e] <= card(S[k]) - 1;
}
"""


def subtour(n: int, seed: int = 6) -> Case:
    """A complete graph on ``n`` cities and a subtour row for every proper subset of 2+ cities (the
    subsets computed in the model from the bits of ``k``, as the corpus's tspremovecircuit does)."""
    rng = np.random.default_rng(seed)
    ii, jj = np.triu_indices(n, 1)  # edges <i, j> with i < j, i slowest (0-based here)
    dist = rng.integers(10, 100, size=ii.size).astype(float)
    edges = ",\n".join("  <%d, %d>" % (a + 1, b + 1) for a, b in zip(ii.tolist(), jj.tolist()))
    dat = "n = %d;\nEdges = {\n%s\n};\ndist = %s;\n" % (n, edges, fmt_vector(dist))

    def direct() -> Direct:
        ne = ii.size
        e = np.arange(ne)
        deg_rows = np.concatenate([ii, jj])  # row v holds the edges at v, in edge order
        deg_cols = np.concatenate([e, e])
        k = np.arange(1, 2 ** n - 1, dtype=np.int64)
        bits = ((k[:, None] >> np.arange(n)) & 1).astype(bool)  # bits[k, v]: city v+1 in S[k]
        inside = bits[:, ii] & bits[:, jj]
        r, c = np.nonzero(inside)
        keep = np.flatnonzero(inside.any(axis=1))  # a subset without an edge inside has no row
        renum = np.full(k.size, -1)
        renum[keep] = np.arange(keep.size)
        rows = np.concatenate([deg_rows, n + renum[r]])
        cols = np.concatenate([deg_cols, c])
        A = _csc(rows, cols, np.ones(rows.size), (n + keep.size, ne))
        card = bits.sum(axis=1)[keep].astype(float)
        rl = np.concatenate([np.full(n, 2.0), np.full(keep.size, -INF)])
        ru = np.concatenate([np.full(n, 2.0), card - 1.0])
        return Direct(1, dist, np.zeros(ne), np.ones(ne), np.ones(ne, dtype=np.int32), A, rl, ru)

    return Case("subtour", "%d cities" % n, SUBTOUR_MOD, dat, direct)


# ---------------------------------------------------------------------- sizes
def cases(scale: str = "full") -> list[Case]:
    """Every case, smallest first within each family. ``medium`` stops one size earlier, ``quick`` two."""
    sizes = {
        "assignment": [10, 32, 100, 316, 1000, 3162],
        "transport": [(10, 10), (32, 32), (100, 100), (316, 316), (1000, 1000), (3162, 3162)],
        "facility": [(5, 20), (10, 100), (32, 316), (100, 1000), (200, 5000), (316, 10000)],
        "netflow": [64, 640, 6400, 64000],
        "production": [(10, 12), (30, 40), (100, 120), (300, 400), (1000, 1200), (3000, 1200)],
        "subtour": [8, 11, 14, 17],  # 2**n - 2 subsets: 254 .. 131,070 rows
    }
    cut = {"full": None, "medium": -1, "quick": -2, "smoke": 2}[scale]
    out: list[Case] = []
    for n in sizes["assignment"][:cut]:
        out.append(assignment(n))
    for m, n in sizes["transport"][:cut]:
        out.append(transport(m, n))
    for a, b in sizes["facility"][:cut]:
        out.append(facility(a, b))
    for v in sizes["netflow"][:cut]:
        out.append(netflow(v))
    for a, b in sizes["production"][:cut]:
        out.append(production(a, b))
    for v in sizes["subtour"][:cut]:
        out.append(subtour(v))
    return out


# ---------------------------------------------------------------------- min-cost flow as users write it
MINCOSTFLOW_MOD = """\
{int} Nodes = ...;
tuple Arc {
  int src;
  int dst;
  float cost;
  float cap;
}
{Arc} Arcs = ...;
float b[Nodes] = ...;

dvar float+ flow[a in Arcs] in 0..a.cap;

minimize sum(a in Arcs) a.cost * flow[a];

subject to {
  forall(v in Nodes)
    balance: sum(a in Arcs : a.src == v) flow[a] - sum(a in Arcs : a.dst == v) flow[a] == b[v];
}
"""


def mincostflow(nodes: int, degree: int = 8, seed: int = 4) -> Case:
    """The netflow graph and data, written as issue 20's users write it: the capacities are the
    ``dvar``'s per-element bounds (``in 0..a.cap``), not rows; the balance rows are the same."""
    net = netflow(nodes, degree, seed)

    rng = np.random.default_rng(seed)  # the same draws as netflow's, in the same order
    src = np.repeat(np.arange(nodes), degree)
    off = np.stack([rng.choice(nodes - 1, size=degree, replace=False) + 1 for _ in range(nodes)]).ravel()
    dst = (src + off) % nodes
    cost = rng.integers(1, 20, size=src.size).astype(float)
    cap = rng.integers(5, 50, size=src.size).astype(float)
    supply = np.zeros(nodes)
    supply[0], supply[-1] = 10.0, -10.0

    def direct() -> Direct:
        na = src.size
        a = np.arange(na)
        A = _csc(np.concatenate([src, dst]), np.concatenate([a, a]),
                 np.concatenate([np.ones(na), -np.ones(na)]), (nodes, na))
        return Direct(1, cost, np.zeros(na), cap, np.zeros(na, dtype=np.int32), A, supply, supply)

    return Case("mincostflow", "%d nodes" % nodes, MINCOSTFLOW_MOD, net.dat.replace("supply =", "b ="), direct)


# ---------------------------------------------------------------------- issue 31's network flow spelling
ISSUE31_MOD = """\
int n = ...;
range Nodes = 1..n;
tuple arc { int orig; int dest; float unitCost; int capacity; }
{arc} Arcs = ...;
float b[Nodes] = ...;
dvar float+ ship[a in Arcs] in 0..a.capacity;
minimize sum(a in Arcs) a.unitCost * ship[a];
subject to {
  forall(v in Nodes)
    ctBalance: sum(a in Arcs : a.dest == v) ship[a] - sum(a in Arcs : a.orig == v) ship[a] == -b[v];
}
"""


def issue31(nodes: int, degree: int = 8, seed: int = 4) -> Case:
    """The netflow graph (nodes numbered from 1) as issue 31 writes it: a ``range`` of nodes, integer
    capacities as ``dvar`` bounds, inflow minus outflow equal to ``-b[v]``."""
    rng = np.random.default_rng(seed)  # the same draws as netflow's, in the same order
    src = np.repeat(np.arange(nodes), degree)
    off = np.stack([rng.choice(nodes - 1, size=degree, replace=False) + 1 for _ in range(nodes)]).ravel()
    dst = (src + off) % nodes
    cost = rng.integers(1, 20, size=src.size).astype(float)
    cap = rng.integers(5, 50, size=src.size)
    b = np.zeros(nodes)
    b[0], b[-1] = 10.0, -10.0
    arcs = ",\n".join("  <%d, %d, %r, %d>" % t for t in zip((src + 1).tolist(), (dst + 1).tolist(), cost.tolist(),
                                                             cap.tolist()))
    dat = "n = %d;\nArcs = {\n%s\n};\nb = %s;\n" % (nodes, arcs, fmt_vector(b))

    def direct() -> Direct:
        na = src.size
        a = np.arange(na)
        A = _csc(np.concatenate([dst, src]), np.concatenate([a, a]),
                 np.concatenate([np.ones(na), -np.ones(na)]), (nodes, na))
        return Direct(1, cost, np.zeros(na), cap.astype(float), np.zeros(na, dtype=np.int32), A, -b, -b)

    def pyoframe(pf, pl):
        a = np.arange(src.size)
        m = pf.Model("highs")
        m.ship = pf.Variable(pl.DataFrame({"a": a}), lb=0, ub=pf.Param(pl.DataFrame({"a": a, "cap": cap.astype(float)})))
        m.minimize = (pf.Param(pl.DataFrame({"a": a, "cost": cost})) * m.ship).sum()
        into = (pf.Param(pl.DataFrame({"a": a, "v": dst + 1, "w": np.ones(a.size)})) * m.ship).sum("a")
        out = (pf.Param(pl.DataFrame({"a": a, "v": src + 1, "w": np.ones(a.size)})) * m.ship).sum("a")
        rhs = pf.Param(pl.DataFrame({"v": np.arange(1, nodes + 1), "b": -b}))
        m.balance = into.keep_extras() - out.keep_extras() == rhs
        return m

    def linopy(lp):
        import xarray as xr

        m = lp.Model()
        ship = m.add_variables(lower=0, upper=xr.DataArray(cap.astype(float), dims=["a"]), coords=[range(src.size)],
                               dims=["a"], name="ship")
        m.add_objective((xr.DataArray(cost, dims=["a"]) * ship).sum())
        into = ship.groupby(xr.DataArray(dst + 1, dims=["a"], name="v")).sum()
        out = ship.groupby(xr.DataArray(src + 1, dims=["a"], name="v")).sum()
        m.add_constraints(into - out == xr.DataArray(-b, coords=[np.arange(1, nodes + 1)], dims=["v"]), name="balance")
        return m

    return Case("issue31", "%d nodes" % nodes, ISSUE31_MOD, dat, direct, linopy=linopy, pyoframe=pyoframe)


# ---------------------------------------------------------------------- issue 46's families (families6.py)
import families6  # noqa: E402
from families6 import mcnd, sparse_assign, unitcommit  # noqa: E402,F401  (measure.py finds generators here)
