"""Which practitioner spellings still go row by row (issue 46, round 8): each model, about 50,000 rows
with its data made in the model (no `.dat`), compiled in this process with ``pyopl.compile_model``; prints
the CPU of the compile and how many rows the row-by-row path made (``lowering.model.constraints._cons``
counted). Before and after, one process per model and tree, alternated::

    for c in cond_sum cumul pairs; do for t in /work/main .; do
      (cd $t && PYTHONPATH=$t python benchmarks/row_path_probe.py $c); done; done

``python benchmarks/row_path_probe.py`` runs every model (``setarr_src`` and ``pattern_cond`` take minutes
on a tree without round 8). Round 9 (docs/performance.md) added ``ord_cells``, ``ord_nested``, ``ord_range``,
``minl_idx``, ``min_pair``, ``min_fn``, ``max_agg``, ``scaled_paren``, ``tuple_in_filter``, ``tuple_in_sum``,
``cell_filter``, ``cell_sum``, ``data_first``, ``norm_sum``, ``abs_data``, the objective ``norm_obj`` (and ``norm_obj10k``, ``norm_obj50k``) and the logical ``logic_imp``, ``logic_or``
(still row by row). Round 10 added ``neg_bracket``, ``prod_row``, ``own_iter``, ``set_comp``,
``set_diff``, ``forall_diff``, ``card_comp``, ``cp_presence``, ``cp_presence_rows``."""
import sys
import time

import pyopl
from pyopl.lowering.model import constraints as C

N = 50_000
M = {}
# 1 set array by data array
M["setarr_src"] = f"""
int nV = 2000; range V = 1..nV; int nA = {N}; range A = 1..nA;
int src[a in A] = (a * 7919) mod nV + 1; int dst[a in A] = (a * 7717) mod nV + 1;
{{int}} outA[v in V] = {{a | a in A : src[a] == v}};
{{int}} inA[v in V] = {{a | a in A : v == dst[a]}};
dvar float+ x[A];
minimize sum(a in A) x[a];
subject to {{ forall(v in V) bal: sum(a in outA[v]) x[a] - sum(a in inA[v]) x[a] == 0; }}
"""
M["setarr_nbrs"] = f"""
int nV = 2000; range V = 1..nV; int nA = {N}; range A = 1..nA;
int src[a in A] = (a * 7919) mod nV + 1; int dst[a in A] = (a * 7717) mod nV + 1;
{{int}} nb[v in V] = {{dst[a] | a in A : src[a] == v}};
dvar float+ y[V];
minimize sum(v in V) y[v];
subject to {{ forall(v in V) c: sum(w in nb[v]) y[w] >= 1; }}
"""
# 2 ?: with sum in branch
M["cond_sum"] = """
int nT = 50; range T = 1..nT; int nS = 1000; range S = 1..nS; float init = 3;
dvar float+ x[S][T]; dvar float+ y[S][T];
minimize sum(s in S, t in T) x[s][t];
subject to { forall(s in S, t in T) c: x[s][t] == (t == 1 ? init : sum(k in 1..3) y[s][t-1] * k); }
"""
M["cond_datasum"] = """
int nT = 50; range T = 1..nT; int nS = 1000; range S = 1..nS; float d[s in S][t in T] = (s + t) mod 7;
dvar float+ x[S][T];
minimize sum(s in S, t in T) x[s][t];
subject to { forall(s in S, t in T) c: x[s][t] >= (t > 1 ? sum(k in 1..t-1) d[s][k] : 0); }
"""
# 3 label index expression
M["label_expr"] = f"""
int n = {N}; range R = 1..n; dvar float+ x[R];
constraint ct[1..n-1];
minimize sum(i in R) x[i];
subject to {{ forall(i in 2..n) ct[i-1]: x[i] - x[i-1] <= 1; }}
"""
M["label_expr2"] = """
int n = 250; range R = 1..n; range J = 1..200; dvar float+ x[R][J];
constraint ct[1..n][J];
minimize sum(i in R, j in J) x[i][j];
subject to { forall(i in 1..n-1, j in J) ct[i+1][j]: x[i+1][j] - x[i][j] <= 1; }
"""
# 4 triangular nested forall in braced body
M["braced_tri"] = """
int n = 315; range R = 1..n; dvar float+ x[R][R]; dvar float+ z[R];
minimize sum(i in R) z[i];
subject to { forall(i in R) { forall(j in 1..i) c: x[i][j] <= z[i]; d: z[i] >= 1; } }
"""
# 5 textbook
M["transport"] = """
int nI = 200; int nJ = 250; range I = 1..nI; range J = 1..nJ;
float cost[i in I][j in J] = (i * j) mod 17 + 1; float sup[i in I] = 100; float dem[j in J] = 50;
dvar float+ x[I][J];
minimize sum(i in I, j in J) cost[i][j] * x[i][j];
subject to { forall(i in I) s: sum(j in J) x[i][j] <= sup[i]; forall(j in J) d: sum(i in I) x[i][j] >= dem[j]; }
"""
M["facility"] = """
int nI = 200; int nJ = 250; range I = 1..nI; range J = 1..nJ; float cap[i in I] = 500;
dvar float+ x[I][J]; dvar boolean y[I];
minimize sum(i in I, j in J) x[i][j] + sum(i in I) 100 * y[i];
subject to { forall(i in I, j in J) link: x[i][j] <= y[i]; forall(j in J) sum(i in I) x[i][j] == 1;
  forall(i in I) sum(j in J) x[i][j] <= cap[i] * y[i]; }
"""
M["mtz"] = """
int n = 224; range N = 1..n; dvar boolean x[N][N]; dvar float+ u[N];
minimize sum(i in N, j in N) x[i][j];
subject to { forall(i in N, j in N : i != j && j > 1) u[i] - u[j] + n * x[i][j] <= n - 1; }
"""
M["precedence"] = f"""
int n = {N}; range J = 1..n; tuple P {{ int a; int b; }} {{P}} Prec = {{<i, i + 1> | i in 1..n-1}};
int dur[j in J] = j mod 5 + 1; dvar float+ s[J];
minimize sum(j in J) s[j];
subject to {{ forall(<i, j> in Prec) s[j] >= s[i] + dur[i]; }}
"""
M["cumul"] = """
int nT = 100; range T = 1..nT; int nP = 500; range P = 1..nP; float d[p in P][t in T] = 1;
dvar float+ x[P][T];
minimize sum(p in P, t in T) x[p][t];
subject to { forall(p in P, t in T) sum(s in 1..t) x[p][s] >= sum(s in 1..t) d[p][s]; }
"""
M["window"] = """
int nT = 100; range T = 1..nT; int nP = 500; range P = 1..nP; int L = 4;
dvar boolean st[P][T]; dvar boolean on[P][T];
minimize sum(p in P, t in T) on[p][t];
subject to { forall(p in P, t in T) sum(s in maxl(1, t - L + 1)..t) st[p][s] <= on[p][t];
  forall(p in P, t in T : t > 1) on[p][t] - on[p][t-1] <= st[p][t]; }
"""
M["cover"] = """
int nI = 2000; int nJ = 25; range I = 1..nI; range J = 1..nJ;
{int} covers[i in I] = {j | j in J : (i + j) mod 3 == 0};
dvar boolean x[J]; dvar float+ z[I];
minimize sum(j in J) x[j];
subject to { forall(i in I) sum(j in covers[i]) x[j] >= 1 - z[i]; }
"""
M["memb_cov"] = """
int nT = 160; range T = 1..nT; int nS = 300; range S = 1..nS;
{int} cov[s in S] = {t | t in T : t >= s mod 160 && t < s mod 160 + 8};
dvar int+ w[S]; 
minimize sum(s in S) w[s];
subject to { forall(t in T) sum(s in S : t in cov[s]) w[s] >= 3; }
"""
M["tuple_join"] = """
tuple Arc { int o; int d; float c; } int nV = 500; range V = 1..nV;
{Arc} Arcs = {<i, j, (i + j) mod 9 + 1> | i in V, j in V : (i * j) mod 5 == 0 && i != j};
dvar float+ f[Arcs];
minimize sum(a in Arcs) a.c * f[a];
subject to { forall(v in V) sum(a in Arcs : a.o == v) f[a] - sum(a in Arcs : a.d == v) f[a] == (v == 1 ? 1 : 0);
  forall(a in Arcs) f[a] <= a.c; }
"""
M["braced_if"] = """
int nT = 100; range T = 1..nT; int nP = 250; range P = 1..nP;
dvar float+ inv[P][T]; dvar float+ x[P][T];
minimize sum(p in P, t in T) inv[p][t];
subject to { forall(p in P) { forall(t in T) { if (t == 1) inv[p][t] == x[p][t]; else inv[p][t] == inv[p][t-1] + x[p][t] - 1; } } }
"""
M["dexpr"] = """
int nT = 100; range T = 1..nT; int nP = 500; range P = 1..nP;
dvar float+ x[P][T]; dexpr float tot[p in P] = sum(t in T) x[p][t];
minimize sum(p in P) tot[p];
subject to { forall(p in P, t in T) x[p][t] <= tot[p] / 2; }
"""

M["pairs"] = """
int n = 317; range J = 1..n; int p[j in J] = j mod 7 + 1; int M = 10000;
dvar float+ s[J]; dvar boolean y[J][J];
minimize sum(j in J) s[j];
subject to { forall(i, j in J : i < j) s[i] + p[i] <= s[j] + M * (1 - y[i][j]); }
"""
M["ordered"] = M["pairs"].replace("forall(i, j in J : i < j)", "forall(ordered i, j in J)")
M["triangle"] = M["pairs"].replace("forall(i, j in J : i < j)", "forall(i in J, j in i+1..n)")
M["pattern_cond"] = """
tuple arc { int i; int j; } int nV = 2000; range V = 1..nV;
{arc} Arcs = {<i, (i * 37 + k * 101) mod nV + 1> | i in V, k in 1..25};
int b[v in V] = 0;
dvar float+ x[Arcs];
minimize sum(a in Arcs) x[a];
subject to { forall(k in V) sum(<i, k> in Arcs) x[<i, k>] - sum(<k, j> in Arcs) x[<k, j>] == b[k]; }
"""
M["invariant_sum"] = f"""
int n = {N}; range R = 1..n; range K = 1..50; float d[k in K] = k * 0.5;
dvar float+ z[R];
minimize sum(i in R) z[i];
subject to {{ forall(i in R) z[i] <= sum(k in K) d[k]; }}
"""
M["setlit_in"] = """
int nI = 200; int nJ = 250; range I = 1..nI; range J = 1..nJ;
dvar float+ x[I][J];
minimize sum(i in I, j in J) x[i][j];
subject to { forall(i in I, j in J) x[i][j] <= (j in {1, 5, 9} ? 2 : 1); }
"""
M["tuple_forall"] = M["precedence"]

# issue 46, round 9: the spellings round 8 left row by row
M["ord_cells"] = """
int nK = 100; range K = 1..nK; int nJ = 40; range J = 1..nJ;
{int} members[k in K] = {j | j in J : (j * k) mod 7 != 0};
int p[j in J] = j mod 7 + 1; int M = 10000;
dvar float+ s[K][J]; dvar boolean y[K][J][J];
minimize sum(k in K, j in J) s[k][j];
subject to { forall(k in K, ordered i, j in members[k]) s[k][i] + p[i] <= s[k][j] + M * (1 - y[k][i][j]); }
"""
M["ord_nested"] = M["ord_cells"].replace("forall(k in K, ordered i, j in members[k]) s[k][i]", "forall(k in K) { forall(ordered i, j in members[k]) s[k][i]").replace("(1 - y[k][i][j]); }", "(1 - y[k][i][j]); } }")
M["ord_range"] = """
int nK = 67; range K = 1..nK; int M = 10000;
dvar float+ s[1..nK]; dvar boolean y[1..nK][1..nK];
minimize sum(k in K) s[k];
subject to { forall(k in K, ordered i, j in 1..k) s[i] - s[j] <= k + M * y[i][j]; }
"""
M["minl_idx"] = """
int nT = 100; range T = 1..nT; int nP = 500; range P = 1..nP;
dvar float+ x[P][T]; dvar float+ r[P][T];
minimize sum(p in P, t in T) x[p][t];
subject to { forall(p in P, t in T) x[p][t] - x[p][maxl(t - 1, 1)] <= r[p][t]; }
"""
M["min_pair"] = """
int n = 224; range N = 1..n; float w[i in N] = i mod 9 + 1;
dvar float+ x[N][N]; dvar float+ z[N];
minimize sum(i in N) z[i];
subject to { forall(i in N, j in N) x[i][j] <= z[minl(i, j)] + maxl(w[i], w[j]); }
"""
M["min_fn"] = M["min_pair"].replace("z[minl(i, j)] + maxl(w[i], w[j])", "z[min(i, j)] + max(w[i], w[j])")
M["max_agg"] = """
int nT = 100; range T = 1..nT; int nP = 500; range P = 1..nP; float d[p in P][t in T] = (p * t) mod 11;
dvar float+ x[P][T];
minimize sum(p in P, t in T) x[p][t];
subject to { forall(p in P, t in T) x[p][t] >= max(s in 1..t) d[p][s]; }
"""
M["scaled_paren"] = """
int nT = 100; range T = 1..nT; int nP = 500; range P = 1..nP; range K = 1..4;
dvar float+ x[P][T]; dvar float+ y[P][T][K];
minimize sum(p in P, t in T) x[p][t];
subject to { forall(p in P, t in T) (sum(k in K) y[p][t][k] + x[p][t]) * 3 <= 10; }
"""
M["tuple_in_filter"] = """
tuple arc { int i; int j; } int n = 500; range I = 1..n;
{arc} Arcs = {<i, j> | i in I, j in I : (i * 7 + j * 3) mod 5 == 0};
dvar float+ x[I][I]; dvar float+ u[I];
minimize sum(i in I) u[i];
subject to { forall(i in I, j in I : <i, j> in Arcs) x[i][j] <= u[i]; }
"""
M["tuple_in_sum"] = """
tuple arc { int i; int j; } int n = 500; range I = 1..n;
{arc} Arcs = {<i, j> | i in I, j in I : (i * 7 + j * 3) mod 5 == 0};
dvar float+ x[Arcs]; dvar float+ u[I];
minimize sum(i in I) u[i];
subject to { forall(i in I) sum(j in I : <i, j> in Arcs) x[<i, j>] <= u[i];
  forall(j in I) sum(<i, j> in Arcs : i != j) x[<i, j>] >= 1; }
"""
M["cell_filter"] = """
int n = 500; range I = 1..n; {int} nb[i in I] = {(i * 7 + k * 13) mod n + 1 | k in 1..101};
dvar float+ x[I][I]; dvar float+ y[I];
minimize sum(i in I) y[i];
subject to { forall(i in I, j in I : j in nb[i] && j != i) x[i][j] <= y[i]; }
"""
M["cell_sum"] = M["cell_filter"].replace("forall(i in I, j in I : j in nb[i] && j != i) x[i][j] <= y[i];",
    "forall(i in I) sum(j in I : j in nb[i] && j != i) x[i][j] <= y[i];")
M["data_first"] = """
int nT = 100; range T = 1..nT; int nP = 500; range P = 1..nP; range K = 1..4; float cap[p in P] = p mod 9 + 10;
dvar float+ x[P][T]; dvar float+ y[P][T][K];
minimize sum(p in P, t in T) x[p][t];
subject to { forall(p in P, t in T) x[p][t] <= cap[p] - (t > 1 ? sum(k in K) y[p][t-1][k] : 0); }
"""
M["norm_sum"] = """
int nT = 100; range T = 1..nT; int nP = 5000; range P = 1..nP; float w[t in T] = t mod 7 + 1;
dvar float+ x[P][T]; dvar float+ y[P];
minimize sum(p in P) y[p];
subject to { forall(p in P) y[p] <= sum(t in T) x[p][t] * w[t] / sum(k in T) w[k]; }
"""
M["abs_data"] = """
int nT = 100; range T = 1..nT; int nP = 500; range P = 1..nP; float d[t in T] = t mod 13 - 6;
dvar float+ x[P][T];
minimize sum(p in P, t in T) x[p][t];
subject to { forall(p in P, t in T) x[p][t] >= abs(d[t] - p mod 5) + abs(t - 50); }
"""
# the objective `sum(i) x[i] * w[i] / sum(k) w[k]` (no rows but one): 5,000, 10,000 and 50,000 terms
for _n, _name in ((5000, "norm_obj"), (10000, "norm_obj10k"), (50000, "norm_obj50k")):
    M[_name] = f"""
int n = {_n}; range I = 1..n; float w[i in I] = i mod 7 + 1; dvar float+ x[I];
minimize sum(i in I) x[i] * w[i] / sum(k in I) w[k];
subject to {{ sum(i in I) x[i] >= 1; }}
"""
M["logic_imp"] = """
int nT = 100; range T = 1..nT; int nP = 500; range P = 1..nP;
dvar boolean on[P][T]; dvar float+ x[P][T];
minimize sum(p in P, t in T) x[p][t];
subject to { forall(p in P, t in T) (on[p][t] == 1) => (x[p][t] >= 5); }
"""
M["logic_or"] = """
int nT = 100; range T = 1..nT; int nP = 500; range P = 1..nP;
dvar float x[P][T] in 0..100;
minimize sum(p in P, t in T) x[p][t];
subject to { forall(p in P, t in T) (x[p][t] <= 10) || (x[p][t] >= 20); }
"""

# issue 46, round 10: the spellings round 9 left row by row
M["neg_bracket"] = """
int nT = 100; range T = 1..nT; int nP = 500; range P = 1..nP; range K = 1..4; float cap[p in P] = p mod 9 + 10;
dvar float+ x[P][T]; dvar float+ y[P][T][K];
minimize sum(p in P, t in T) x[p][t];
subject to { forall(p in P, t in T) -(sum(k in K) y[p][t][k] + x[p][t]) >= -cap[p]; }
"""
M["prod_row"] = """
int nT = 100; range T = 1..nT; int nP = 500; range P = 1..nP; range K = 1..4;
float g[p in P][k in K] = 1 + ((p * k) mod 7) * 0.01;
dvar float+ x[P][T];
minimize sum(p in P, t in T) x[p][t];
subject to { forall(p in P, t in T) x[p][t] <= prod(k in K) g[p][k] * t; }
"""
M["own_iter"] = """
int nT = 20; range T = 1..nT; int nP = 5000; range P = 1..nP; range K = 1..4;
float g[p in P][t in T][k in K] = ((p + t * k) mod 11) * 0.5;
dvar float+ x[P][T]; dvar float+ y[P];
minimize sum(p in P) y[p];
subject to { forall(p in P) y[p] <= sum(t in T) (max(k in K) g[p][t][k]) * x[p][t]; }
"""
M["set_comp"] = """
int nI = 5000; range I = 1..nI; int nJ = 100; range J = 1..nJ; float c[i in I][j in J] = (i * j) mod 3;
dvar float+ x[I][J]; dvar float+ u[I];
minimize sum(i in I) u[i];
subject to { forall(i in I) sum(j in {j2 | j2 in J : c[i][j2] > 0}) x[i][j] <= u[i]; }
"""
M["set_diff"] = """
int nI = 5000; range I = 1..nI; int nJ = 100; range J = 1..nJ; {int} S[i in I] = {j | j in J : (i + j) mod 4 == 0};
dvar float+ x[I][J]; dvar float+ u[I];
minimize sum(i in I) u[i];
subject to { forall(i in I) sum(j in J diff S[i]) x[i][j] <= u[i]; }
"""
M["forall_diff"] = """
int n = 224; range N = 1..n; float c[i in N][j in N] = (i * j) mod 13 + 1;
dvar boolean x[N][N]; dvar float+ u[N];
minimize sum(i in N, j in N) c[i][j] * x[i][j];
subject to { forall(i in N, j in N diff {i}) u[i] - u[j] + n * x[i][j] <= n - 1; }
"""
M["card_comp"] = f"""
int n = {N}; range I = 1..n; int K = 40; int b[i in I] = i mod 17;
dvar float+ x[I];
minimize sum(i in I) x[i];
subject to {{ forall(i in I) x[i] >= card({{k | k in 1..K : (k + b[i]) mod 3 == 0}}); }}
"""
# using CP: `presenceOf` of optional intervals in linear rows (a knapsack of 50,000, and 2,000 rows of 25)
M["cp_presence"] = """
using CP;
int n = 50000; range I = 1..n; int w[i in I] = i mod 7 + 1;
dvar interval t[i in I] optional size 3;
maximize sum(i in I) presenceOf(t[i]);
subject to { sum(i in I) presenceOf(t[i]) * w[i] <= 1000; }
"""
M["cp_presence_rows"] = """
using CP;
int nR = 2000; range R = 1..nR; range J = 1..25; int w[j in J] = j mod 7 + 1;
dvar interval u[r in R][j in J] optional size 2;
maximize sum(r in R, j in J) presenceOf(u[r][j]);
subject to { forall(r in R) sum(j in J) presenceOf(u[r][j]) * w[j] <= 10; }
"""

def run(name, mod):
    count = [0]
    real = C._cons
    def cons(inst, s, env):
        count[0] += 1
        return real(inst, s, env)
    C._cons = cons
    try:
        t0 = time.process_time()
        m = pyopl.compile_model(mod)
        t = time.process_time() - t0
    finally:
        C._cons = real
    return t, count[0], len(m.instance.rows)

names = sys.argv[1:] or list(M)
for name in names:
    try:
        t, rp, rows = run(name, M[name])
        print(f"{name:14s} cpu {t:6.2f}s rowpath {rp:7d} of {rows:7d} rows", flush=True)
    except Exception as e:
        print(f"{name:14s} ERROR {type(e).__name__}: {str(e)[:300]}", flush=True)
