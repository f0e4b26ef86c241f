"""Issue 46's three families, written as a practitioner writes them, with the floor and the peers.

- :func:`mcnd`: multi-commodity network design.  The flow balance's right-hand side is a nested
  conditional (``n == k.o ? k.demand : (n == k.d ? -k.demand : 0)``) and a few arcs are self-loops
  (a depot's waiting arc), so one column appears twice in a row (``+x - x``: summed to 0, dropped).
- :func:`unitcommit`: unit commitment.  Braced ``forall`` bodies with several constraints, ``t-1``
  ramps, and a minimum up-time window ``sum(s in t-minUp[u]+1..t : s >= 1)`` whose range depends on
  the ``forall``'s indices.
- :func:`sparse_assign`: generalised assignment over a large tuple set of eligible pairs, its rows
  written with a ``<i, j, c>`` pattern and with ``p.i == w``.

Each returns a :class:`models.Case`: the model, the ``.dat`` text, ``direct()`` (the same problem as
NumPy/SciPy CSC arrays, rows and columns in pyopl's order, coefficients bit for bit, so
``measure.py check`` compares the IR with it) and the linopy / pyoframe formulations (the same
problem; their row order is their own).  The data are random but fixed (``default_rng(seed)``).
"""
from __future__ import annotations

import numpy as np

from models import INF, Case, Direct, _csc, fmt_vector

# ---------------------------------------------------------------------- multi-commodity network design
MCND_MOD = """\
int nbNodes = ...;
range Nodes = 1..nbNodes;
tuple arc { int o; int d; float cost; float fixed; float cap; }
{arc} Arcs = ...;
tuple commodity { int o; int d; float demand; }
{commodity} Commodities = ...;

dvar float+ flow[Arcs][Commodities];
dvar boolean open[Arcs];

minimize sum(a in Arcs) a.fixed * open[a]
       + sum(a in Arcs, k in Commodities) a.cost * flow[a][k];

subject to {
  forall(n in Nodes, k in Commodities)
    ctBalance: sum(a in Arcs : a.o == n) flow[a][k] - sum(a in Arcs : a.d == n) flow[a][k]
               == (n == k.o ? k.demand : (n == k.d ? -k.demand : 0));
  forall(a in Arcs)
    ctCapacity: sum(k in Commodities) flow[a][k] <= a.cap * open[a];
}
"""


def _mcnd_data(nodes: int, degree: int, ncom: int, seed: int) -> tuple:
    rng = np.random.default_rng(seed)
    src = np.repeat(np.arange(nodes), degree)
    off = np.concatenate([np.concatenate(([1], rng.choice(np.arange(2, nodes), size=degree - 1, replace=False)))
                          for _ in range(nodes)])  # a ring (n -> n+1) and degree-1 random heads
    dst = (src + off) % nodes
    loops = np.arange(0, nodes, 50)  # a waiting arc (a self-loop) at every 50th node
    src, dst = np.concatenate([src, loops]), np.concatenate([dst, loops])
    na = src.size
    cost = rng.integers(1, 20, size=na).astype(float)
    fixed = rng.integers(50, 500, size=na).astype(float)
    pairs = set()
    while len(pairs) < ncom:
        o, d = rng.integers(0, nodes, size=2).tolist()
        if o != d:
            pairs.add((o, d))
    co, cd = np.array(sorted(pairs)).T
    demand = rng.integers(1, 20, size=ncom).astype(float)
    cap = np.full(na, float(np.ceil(demand.sum() / 4)))
    return src, dst, cost, fixed, cap, co, cd, demand


def mcnd(nodes: int, degree: int, ncom: int, seed: int = 7) -> Case:
    """``nodes`` nodes, ``degree`` out-arcs each (a ring and random heads) and a self-loop at every 50th
    node, ``ncom`` commodities (distinct origin-destination pairs)."""
    src, dst, cost, fixed, cap, co, cd, demand = _mcnd_data(nodes, degree, ncom, seed)
    na, K = src.size, co.size
    arcs = ",\n".join("  <%d, %d, %r, %r, %r>" % t for t in zip((src + 1).tolist(), (dst + 1).tolist(),
                                                                 cost.tolist(), fixed.tolist(), cap.tolist()))
    coms = ",\n".join("  <%d, %d, %r>" % t for t in zip((co + 1).tolist(), (cd + 1).tolist(), demand.tolist()))
    dat = "nbNodes = %d;\nArcs = {\n%s\n};\nCommodities = {\n%s\n};\n" % (nodes, arcs, coms)

    def rhs() -> np.ndarray:
        r = np.zeros((nodes, K))
        r[co, np.arange(K)] = demand
        r[cd, np.arange(K)] = -demand
        return r.ravel()

    def direct() -> Direct:
        # columns: flow[a][k] at a*K + k, then open[a]; rows: balance (n, k) at n*K + k, then capacity a
        f = np.arange(na * K)
        a, k = f // K, f % K
        nbal = nodes * K
        rows = np.concatenate([src[a] * K + k, dst[a] * K + k, nbal + a, nbal + np.arange(na)])
        cols = np.concatenate([f, f, f, na * K + np.arange(na)])
        vals = np.concatenate([np.ones(na * K), -np.ones(na * K), np.ones(na * K), -cap])
        A = _csc(rows, cols, vals, (nbal + na, na * K + na))
        A.eliminate_zeros()  # a self-loop's +1 - 1 (pyopl drops the zero, as HiGHS would)
        r = rhs()
        rl = np.concatenate([r, np.full(na, -INF)])
        ru = np.concatenate([r, np.zeros(na)])
        n = na * K + na
        integ = np.zeros(n, dtype=np.int32)
        integ[na * K:] = 1
        upper = np.full(n, INF)
        upper[na * K:] = 1.0
        return Direct(1, np.concatenate([np.repeat(cost, K), fixed]), np.zeros(n), upper, integ, A, rl, ru)

    def linopy(lp):
        import xarray as xr

        m = lp.Model()
        flow = m.add_variables(lower=0, coords=[range(na), range(K)], dims=["a", "k"], name="flow")
        opened = m.add_variables(binary=True, coords=[range(na)], dims=["a"], name="open")
        m.add_objective((xr.DataArray(fixed, dims=["a"]) * opened).sum()
                        + (xr.DataArray(cost, dims=["a"]) * flow).sum())
        out = flow.groupby(xr.DataArray(src, dims=["a"], name="n")).sum()
        into = flow.groupby(xr.DataArray(dst, dims=["a"], name="n")).sum()
        m.add_constraints(out - into == xr.DataArray(rhs().reshape(nodes, K), coords=[range(nodes), range(K)],
                                                     dims=["n", "k"]), name="balance")
        m.add_constraints(flow.sum("k") - xr.DataArray(cap, dims=["a"]) * opened <= 0, name="capacity")
        return m

    def pyoframe(pf, pl):
        a, k = np.repeat(np.arange(na), K), np.tile(np.arange(K), na)
        m = pf.Model("highs")
        m.flow = pf.Variable(pl.DataFrame({"a": a, "k": k}), lb=0)
        m.open = pf.Variable(pl.DataFrame({"a": np.arange(na)}), vtype=pf.VType.BINARY)
        m.minimize = (pf.Param(pl.DataFrame({"a": np.arange(na), "fixed": fixed})) * m.open).sum() \
            + (pf.Param(pl.DataFrame({"a": np.arange(na), "cost": cost})) * m.flow).sum()
        out = (pf.Param(pl.DataFrame({"a": np.arange(na), "n": src, "w": np.ones(na)})) * m.flow).sum("a")
        into = (pf.Param(pl.DataFrame({"a": np.arange(na), "n": dst, "w": np.ones(na)})) * m.flow).sum("a")
        n, kk = np.repeat(np.arange(nodes), K), np.tile(np.arange(K), nodes)
        m.balance = out.keep_extras() - into.keep_extras() == pf.Param(pl.DataFrame({"n": n, "k": kk, "r": rhs()}))
        m.capacity = m.flow.sum("k") <= pf.Param(pl.DataFrame({"a": np.arange(na), "cap": cap})) * m.open
        return m

    return Case("mcnd", "%dn %da %dk" % (nodes, na, K), MCND_MOD, dat, direct, linopy=linopy, pyoframe=pyoframe)


# ---------------------------------------------------------------------- unit commitment
UC_MOD = """\
int nbUnits = ...;
int nbPeriods = ...;
range Units = 1..nbUnits;
range Periods = 1..nbPeriods;
float demand[Periods] = ...;
float reserve[Periods] = ...;
float pmin[Units] = ...;
float pmax[Units] = ...;
float ramp[Units] = ...;
int minUp[Units] = ...;
float costOn[Units] = ...;
float costEnergy[Units] = ...;
float costStart[Units] = ...;

dvar float+ p[Units][Periods];
dvar boolean on[Units][Periods];
dvar boolean start[Units][Periods];

minimize sum(u in Units, t in Periods)
  (costOn[u] * on[u][t] + costEnergy[u] * p[u][t] + costStart[u] * start[u][t]);

subject to {
  forall(t in Periods) {
    ctDemand: sum(u in Units) p[u][t] == demand[t];
    ctReserve: sum(u in Units) pmax[u] * on[u][t] >= demand[t] + reserve[t];
  }
  forall(u in Units, t in Periods) {
    ctMin: p[u][t] >= pmin[u] * on[u][t];
    ctMax: p[u][t] <= pmax[u] * on[u][t];
  }
  forall(u in Units)
    ctFirstStart: start[u][1] >= on[u][1];
  forall(u in Units, t in Periods : t > 1) {
    ctRampUp: p[u][t] - p[u][t-1] <= ramp[u];
    ctRampDown: p[u][t-1] - p[u][t] <= ramp[u];
    ctStart: start[u][t] >= on[u][t] - on[u][t-1];
  }
  forall(u in Units, t in Periods)
    ctMinUp: sum(s in t-minUp[u]+1..t : s >= 1) start[u][s] <= on[u][t];
}
"""


def _uc_data(nu: int, nt: int, seed: int) -> tuple:
    rng = np.random.default_rng(seed)
    pmax = rng.integers(50, 400, size=nu).astype(float)
    pmin = np.round(pmax * 0.3)
    ramp = np.round(pmax * 0.6)
    minup = rng.integers(1, 9, size=nu)
    con = rng.integers(10, 100, size=nu).astype(float)
    cen = np.round(rng.uniform(10, 60, size=nu), 2)
    cst = rng.integers(100, 1000, size=nu).astype(float)
    t = np.arange(nt)
    demand = np.round(pmax.sum() * (0.55 + 0.15 * np.sin(2 * np.pi * t / 24)), 1)
    reserve = np.round(demand * 0.1, 1)
    return pmax, pmin, ramp, minup, con, cen, cst, demand, reserve


def unitcommit(nu: int, nt: int, seed: int = 8) -> Case:
    """``nu`` units over ``nt`` hourly periods (demand a daily wave at 40-70% of the fleet's capacity)."""
    pmax, pmin, ramp, minup, con, cen, cst, demand, reserve = _uc_data(nu, nt, seed)
    dat = ("nbUnits = %d;\nnbPeriods = %d;\ndemand = %s;\nreserve = %s;\npmin = %s;\npmax = %s;\nramp = %s;\n"
           "minUp = %s;\ncostOn = %s;\ncostEnergy = %s;\ncostStart = %s;\n") % (
        nu, nt, fmt_vector(demand), fmt_vector(reserve), fmt_vector(pmin), fmt_vector(pmax), fmt_vector(ramp),
        fmt_vector(minup), fmt_vector(con), fmt_vector(cen), fmt_vector(cst))

    def direct() -> Direct:
        # columns: p[u][t] at u*nt + t, on at N + ..., start at 2N + ...
        N = nu * nt
        P, ON, ST = 0, N, 2 * N
        g = np.arange(N)
        u, t = g // nt, g % nt
        rows, cols, vals, lo, hi = [], [], [], [], []
        r0 = [0]

        def block(nrows, rr, cc, vv, l, h):
            rows.append(r0[0] + rr)
            cols.append(cc)
            vals.append(vv)
            lo.append(np.broadcast_to(l, (nrows,)))
            hi.append(np.broadcast_to(h, (nrows,)))
            r0[0] += nrows

        # forall(t) { demand; reserve }: rows 2t, 2t+1
        block(2 * nt, np.concatenate([2 * t, 2 * t + 1]), np.concatenate([P + g, ON + g]),
              np.concatenate([np.ones(N), pmax[u]]),
              np.ravel(np.column_stack([demand, demand + reserve])),
              np.ravel(np.column_stack([demand, np.full(nt, INF)])))
        # forall(u, t) { min; max }: rows 2g, 2g+1
        block(2 * N, np.concatenate([2 * g, 2 * g, 2 * g + 1, 2 * g + 1]),
              np.concatenate([P + g, ON + g, P + g, ON + g]),
              np.concatenate([np.ones(N), -pmin[u], np.ones(N), -pmax[u]]),
              np.ravel(np.column_stack([np.zeros(N), np.full(N, -INF)])),
              np.ravel(np.column_stack([np.full(N, INF), np.zeros(N)])))
        # forall(u) first start: start - on >= 0
        first = np.arange(nu) * nt
        block(nu, np.concatenate([np.arange(nu)] * 2), np.concatenate([ST + first, ON + first]),
              np.concatenate([np.ones(nu), -np.ones(nu)]), 0.0, INF)
        # forall(u, t > 1) { ramp up; ramp down; start }: rows 3q, 3q+1, 3q+2
        later = g[t > 0]
        q = np.arange(later.size)
        M = later.size
        block(3 * M, np.concatenate([3 * q, 3 * q, 3 * q + 1, 3 * q + 1, 3 * q + 2, 3 * q + 2, 3 * q + 2]),
              np.concatenate([P + later, P + later - 1, P + later - 1, P + later, ST + later, ON + later,
                              ON + later - 1]),
              np.concatenate([np.ones(M), -np.ones(M), np.ones(M), -np.ones(M), np.ones(M), -np.ones(M),
                              np.ones(M)]),
              np.ravel(np.column_stack([np.full(M, -INF), np.full(M, -INF), np.zeros(M)])),
              np.ravel(np.column_stack([ramp[u[later]], ramp[u[later]], np.full(M, INF)])))
        # forall(u, t) min up: sum(s in t-minUp+1..t, s >= 1) start[u][s] - on[u][t] <= 0
        width = np.minimum(minup[u], t + 1)  # terms in each row
        rr = np.repeat(g, width)
        back = np.arange(rr.size) - np.repeat(np.cumsum(width) - width, width)  # 0, 1, ... within each row
        s = np.repeat(t - width + 1, width) + back
        block(N, np.concatenate([rr, g]), np.concatenate([ST + u[rr] * nt + s, ON + g]),
              np.concatenate([np.ones(rr.size), -np.ones(N)]), -INF, 0.0)
        A = _csc(np.concatenate(rows), np.concatenate(cols), np.concatenate(vals), (r0[0], 3 * N))
        c = np.concatenate([cen[u], con[u], cst[u]])
        integ = np.zeros(3 * N, dtype=np.int32)
        integ[N:] = 1
        upper = np.full(3 * N, INF)
        upper[N:] = 1.0
        return Direct(1, c, np.zeros(3 * N), upper, integ, A, np.concatenate(lo).astype(float),
                      np.concatenate(hi).astype(float))

    def linopy(lp):
        import xarray as xr

        m = lp.Model()
        coords = [range(nu), range(nt)]
        p = m.add_variables(lower=0, coords=coords, dims=["u", "t"], name="p")
        on = m.add_variables(binary=True, coords=coords, dims=["u", "t"], name="on")
        st = m.add_variables(binary=True, coords=coords, dims=["u", "t"], name="start")
        U = lambda v: xr.DataArray(v, dims=["u"])  # noqa: E731
        T = lambda v: xr.DataArray(v, dims=["t"])  # noqa: E731
        m.add_objective((U(con) * on).sum() + (U(cen) * p).sum() + (U(cst) * st).sum())
        m.add_constraints(p.sum("u") == T(demand), name="demand")
        m.add_constraints((U(pmax) * on).sum("u") >= T(demand + reserve), name="reserve")
        m.add_constraints(p - U(pmin) * on >= 0, name="min")
        m.add_constraints(p - U(pmax) * on <= 0, name="max")
        later = dict(t=slice(1, None))
        m.add_constraints((p - p.shift(t=1)).isel(later) <= U(ramp), name="rampUp")
        m.add_constraints((p.shift(t=1) - p).isel(later) <= U(ramp), name="rampDown")
        m.add_constraints(st.isel(t=[0]) - on.isel(t=[0]) >= 0, name="firstStart")
        m.add_constraints((st - on + on.shift(t=1)).isel(later) >= 0, name="start")
        window = st
        for k in range(1, int(minup.max())):  # start[u][t-k] where k < minUp[u] (and t-k >= 0: shift's fill)
            window = window + st.shift(t=k).where(U(minup) > k)
        m.add_constraints(window - on <= 0, name="minUp")
        return m

    return Case("unitcommit", "%dx%d" % (nu, nt), UC_MOD, dat, direct, linopy=linopy)


# ---------------------------------------------------------------------- sparse generalised assignment
SPARSE_MOD = """\
int nbWorkers = ...;
int nbTasks = ...;
range Workers = 1..nbWorkers;
range Tasks = 1..nbTasks;
tuple pair { int i; int j; float c; }
{pair} Pairs = ...;
float capacity[Workers] = ...;

dvar boolean x[Pairs];

minimize sum(p in Pairs) p.c * x[p];

subject to {
  forall(k in Tasks)
    ctTask: sum(<i, j, c> in Pairs : j == k) x[<i, j, c>] == 1;
  forall(w in Workers)
    ctWorker: sum(p in Pairs : p.i == w) x[p] <= capacity[w];
}
"""


def _sparse_data(nw: int, nt: int, per: int, seed: int) -> tuple:
    rng = np.random.default_rng(seed)
    # each task: worker j mod nw (so a round-robin assignment fits) and per-1 other distinct workers
    j = np.repeat(np.arange(nt), per)
    other = np.stack([rng.choice(nw - 1, size=per - 1, replace=False) for _ in range(nt)]) + 1
    i = (np.concatenate([np.zeros((nt, 1), dtype=np.int64), other], axis=1) + np.arange(nt)[:, None]) % nw
    i = i.ravel()
    order = np.lexsort((j, i))  # the data file lists pairs worker by worker
    i, j = i[order], j[order]
    c = rng.integers(1, 100, size=i.size).astype(float)
    capacity = np.full(nw, float(np.ceil(2 * nt / nw)))
    return i, j, c, capacity


def sparse_assign(nw: int, nt: int, per: int, seed: int = 9) -> Case:
    """``nt`` tasks, each eligible for ``per`` of ``nw`` workers: ``nt * per`` pairs."""
    i, j, c, capacity = _sparse_data(nw, nt, per, seed)
    npairs = i.size
    pairs = ",\n".join("<%d, %d, %r>" % t for t in zip((i + 1).tolist(), (j + 1).tolist(), c.tolist()))
    dat = "nbWorkers = %d;\nnbTasks = %d;\nPairs = {\n%s\n};\ncapacity = %s;\n" % (
        nw, nt, pairs, fmt_vector(capacity))

    def direct() -> Direct:
        q = np.arange(npairs)
        A = _csc(np.concatenate([j, nt + i]), np.concatenate([q, q]), np.ones(2 * npairs), (nt + nw, npairs))
        rl = np.concatenate([np.ones(nt), np.full(nw, -INF)])
        ru = np.concatenate([np.ones(nt), capacity])
        return Direct(1, c, np.zeros(npairs), np.ones(npairs), np.ones(npairs, dtype=np.int32), A, rl, ru)

    def linopy(lp):
        import xarray as xr

        m = lp.Model()
        x = m.add_variables(binary=True, coords=[range(npairs)], dims=["p"], name="x")
        m.add_objective((xr.DataArray(c, dims=["p"]) * x).sum())
        m.add_constraints(x.groupby(xr.DataArray(j, dims=["p"], name="k")).sum() == 1, name="task")
        m.add_constraints(x.groupby(xr.DataArray(i, dims=["p"], name="w")).sum()
                          <= xr.DataArray(capacity, coords=[np.arange(nw)], dims=["w"]), name="worker")
        return m

    def pyoframe(pf, pl):
        m = pf.Model("highs")
        pairs_df = pl.DataFrame({"i": i, "j": j})
        m.x = pf.Variable(pairs_df, vtype=pf.VType.BINARY)
        m.minimize = (pf.Param(pl.DataFrame({"i": i, "j": j, "c": c})) * m.x).sum()
        m.task = m.x.sum("i") == 1
        m.worker = m.x.sum("j") <= pf.Param(pl.DataFrame({"i": np.arange(nw), "cap": capacity}))
        return m

    return Case("sparse_assign", "%dw %dt %dp" % (nw, nt, npairs), SPARSE_MOD, dat, direct, linopy=linopy,
                pyoframe=pyoframe)
