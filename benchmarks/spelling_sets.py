"""Spellings of one meaning for each benchmark family (issue 31.3): the model text written the ways users
write it, each as a list of ``(old, new)`` replacements applied to the family's model in ``models``.

Every spelling here means the same problem as the family's own model (the same columns, the same
optimum); most give the same matrix too, some reorder or split rows (``==`` as two inequalities,
capacities as rows instead of bounds), so each is compared with the floor on its own and with its own
compile with the array paths off (``tests/test_spelling_families.py``), not with the other spellings.
"""
from __future__ import annotations

import models

# ---------------------------------------------------------------------- issue 31's network flow
IN = "sum(a in Arcs : a.dest == v) ship[a]"
OUT = "sum(a in Arcs : a.orig == v) ship[a]"
PIN = "sum(<o, d, c, u> in Arcs : d == v) ship[<o, d, c, u>]"
POUT = "sum(<o, d, c, u> in Arcs : o == v) ship[<o, d, c, u>]"
ROW = "ctBalance: %s - %s == -b[v];" % (IN, OUT)
DEXPR = ("minimize", "dexpr float inflow[v in Nodes] = %s;\ndexpr float outflow[w in Nodes] = %s;\nminimize"
         % (IN, OUT.replace("== v", "== w")))
ISSUE31 = {
    "as in the issue": [],
    "unlabelled": [(ROW, ROW.replace("ctBalance: ", ""))],
    "sides swapped": [(ROW, "ctBalance: -b[v] == %s - %s;" % (IN, OUT))],
    "-b[v] moved across": [(ROW, "ctBalance: %s - %s + b[v] == 0;" % (IN, OUT))],
    "sums reordered, v == a.f": [(ROW, "ctBalance: -%s + sum(a in Arcs : v == a.dest) ship[a] == -b[v];" % OUT)],
    "== as two inequalities": [(ROW, "lo: %s - %s <= -b[v];\n  forall(v in Nodes)\n    hi: %s - %s >= -b[v];"
                                % (IN, OUT, IN, OUT))],
    "tuple patterns": [(ROW, "ctBalance: %s - %s == -b[v];" % (PIN, POUT))],
    "conjunct after": [(ROW, ROW.replace("a.dest == v", "a.dest == v && a.capacity >= 0"))],
    "conjunct before": [(ROW, ROW.replace("a.orig == v", "a.capacity >= 0 && v == a.orig"))],
    "dexpr in between": [DEXPR, (ROW, "ctBalance: inflow[v] - outflow[v] == -b[v];")],
    "dexpr, unlabelled, other side": [DEXPR, (ROW, "inflow[v] == outflow[v] - b[v];")],
    "capacity rows": [("dvar float+ ship[a in Arcs] in 0..a.capacity;", "dvar float+ ship[Arcs];"),
                      ("subject to {\n", "subject to {\n  forall(a in Arcs)\n    ctCap: ship[a] <= a.capacity;\n")],
    "float fields": [("tuple arc { int orig; int dest; float unitCost; int capacity; }",
                      "tuple arc { float orig; float dest; float unitCost; float capacity; }")],
}

# ---------------------------------------------------------------------- assignment
A_ROW = "ctRow: sum(j in R) x[i][j] == 1;"
A_COL = "ctCol: sum(i in R) x[i][j] == 1;"
A_OBJ = "minimize sum(i in R, j in R) cost[i][j] * x[i][j];"
ASSIGNMENT = {
    "as written": [],
    "unlabelled": [(A_ROW, A_ROW[7:]), (A_COL, A_COL[7:])],
    "sides swapped": [(A_ROW, "ctRow: 1 == sum(j in R) x[i][j];"), (A_COL, "ctCol: 1 == sum(i in R) x[i][j];")],
    "1 moved across": [(A_ROW, "ctRow: sum(j in R) x[i][j] - 1 == 0;")],
    "== as two inequalities": [(A_ROW, "lo: sum(j in R) x[i][j] <= 1;\n  forall(i in R)\n    hi: sum(j in R) x[i][j] >= 1;")],
    "nested sums, factors swapped": [(A_OBJ, "minimize sum(i in R) sum(j in R) x[i][j] * cost[i][j];")],
    "a filter always true": [(A_COL, "ctCol: sum(i in R : i >= 1) x[i][j] == 1;")],
    "dexpr in between": [(A_OBJ, "dexpr float rowSum[i in R] = sum(j in R) x[i][j];\n" + A_OBJ),
                         (A_ROW, "ctRow: rowSum[i] == 1;")],
    "scalar dexpr objective": [(A_OBJ, "dexpr float total = sum(i in R, j in R) cost[i][j] * x[i][j];\n"
                                       "minimize total;")],
    "set instead of range": [("range R = 1..n;", "{int} R = asSet(1..n);")],
}

# ---------------------------------------------------------------------- transportation
T_SUP = "ctSupply: sum(k in Markets) ship[p][k] <= supply[p];"
T_DEM = "ctDemand: sum(p in Plants) ship[p][k] >= demand[k];"
T_OBJ = "minimize sum(p in Plants, k in Markets) cost[p][k] * ship[p][k];"
TRANSPORT = {
    "as written": [],
    "unlabelled": [(T_SUP, T_SUP[10:]), (T_DEM, T_DEM[10:])],
    "sides swapped": [(T_SUP, "ctSupply: supply[p] >= sum(k in Markets) ship[p][k];"),
                      (T_DEM, "ctDemand: demand[k] <= sum(p in Plants) ship[p][k];")],
    "bounds moved across": [(T_SUP, "ctSupply: sum(k in Markets) ship[p][k] - supply[p] <= 0;"),
                            (T_DEM, "ctDemand: 0 <= sum(p in Plants) ship[p][k] - demand[k];")],
    "negated": [(T_DEM, "ctDemand: -sum(p in Plants) ship[p][k] <= -demand[k];")],
    "nested sums, factors swapped": [(T_OBJ, "minimize sum(p in Plants) sum(k in Markets) ship[p][k] * cost[p][k];")],
    "dexpr in between": [(T_OBJ, "dexpr float shipped[p in Plants] = sum(k in Markets) ship[p][k];\n" + T_OBJ),
                         (T_SUP, "ctSupply: shipped[p] <= supply[p];")],
    "explicit bounds": [("dvar float+ ship[Plants][Markets];",
                         "dvar float ship[Plants][Markets] in 0..infinity;")],
    "sets instead of ranges": [("range Plants = 1..m;", "{int} Plants = asSet(1..m);"),
                               ("range Markets = 1..n;", "{int} Markets = asSet(1..n);")],
    "a filter always true": [(T_DEM, "ctDemand: sum(p in Plants : p <= m) ship[p][k] >= demand[k];")],
}

# ---------------------------------------------------------------------- facility location
F_DEM = "ctDemand: sum(w in Warehouses) serve[w][c] == demand[c];"
F_CAP = "ctCapacity: sum(c in Customers) serve[w][c] <= capacity[w] * open[w];"
F_LINK = "forall(w in Warehouses, c in Customers)\n    ctLink: serve[w][c] <= demand[c] * open[w];"
F_OBJ = ("minimize sum(w in Warehouses) fixedCost[w] * open[w]\n"
         "       + sum(w in Warehouses, c in Customers) unitCost[w][c] * serve[w][c];")
FACILITY = {
    "as written": [],
    "unlabelled": [(F_DEM, F_DEM[10:]), (F_CAP, F_CAP[12:]), ("ctLink: ", "")],
    "sides swapped": [(F_CAP, "ctCapacity: capacity[w] * open[w] >= sum(c in Customers) serve[w][c];"),
                      ("ctLink: serve[w][c] <= demand[c] * open[w];", "ctLink: demand[c] * open[w] >= serve[w][c];")],
    "moved across": [(F_CAP, "ctCapacity: sum(c in Customers) serve[w][c] - capacity[w] * open[w] <= 0;"),
                     ("ctLink: serve[w][c] <= demand[c] * open[w];", "ctLink: serve[w][c] - open[w] * demand[c] <= 0;")],
    "nested foralls": [(F_LINK, "forall(w in Warehouses)\n    forall(c in Customers)\n"
                                "      ctLink: serve[w][c] <= demand[c] * open[w];")],
    "== as two inequalities": [(F_DEM, "lo: sum(w in Warehouses) serve[w][c] <= demand[c];\n"
                                       "  forall(c in Customers)\n    hi: sum(w in Warehouses) serve[w][c] >= demand[c];")],
    "dexpr objective parts": [(F_OBJ, "dexpr float fixedPart = sum(w in Warehouses) fixedCost[w] * open[w];\n"
                                      "dexpr float servePart = sum(w in Warehouses, c in Customers) "
                                      "unitCost[w][c] * serve[w][c];\nminimize fixedPart + servePart;")],
    "dexpr in between": [(F_OBJ, "dexpr float load[w in Warehouses] = sum(c in Customers) serve[w][c];\n" + F_OBJ),
                         (F_CAP, "ctCapacity: load[w] <= capacity[w] * open[w];")],
}

# ---------------------------------------------------------------------- tuple-set network flow (run.py's)
N_IN = "sum(a in Arcs : a.dst == v) flow[a]"
N_OUT = "sum(a in Arcs : a.src == v) flow[a]"
N_ROW = "ctBalance: %s - %s == supply[v];" % (N_OUT, N_IN)
NETFLOW = {
    "as written": [],
    "unlabelled": [(N_ROW, N_ROW[11:]), ("ctCap: ", "")],
    "sides swapped": [(N_ROW, "ctBalance: supply[v] == %s - %s;" % (N_OUT, N_IN))],
    "sums reordered, v == a.f": [(N_ROW, "ctBalance: -%s + sum(a in Arcs : v == a.src) flow[a] == supply[v];" % N_IN)],
    "tuple patterns": [(N_ROW, "ctBalance: sum(<s, d, c, u> in Arcs : s == v) flow[<s, d, c, u>] "
                               "- sum(<s, d, c, u> in Arcs : d == v) flow[<s, d, c, u>] == supply[v];")],
    "capacity as bounds": [("dvar float+ flow[Arcs];", "dvar float+ flow[a in Arcs] in 0..a.cap;"),
                           ("  forall(a in Arcs)\n    ctCap: flow[a] <= a.cap;\n", "")],
    "dexpr in between": [("minimize", "dexpr float out[v in Nodes] = %s;\nminimize" % N_OUT),
                         (N_ROW, "ctBalance: out[v] - %s == supply[v];" % N_IN)],
    "pattern objective": [("minimize sum(a in Arcs) a.cost * flow[a];",
                           "minimize sum(<s, d, c, u> in Arcs) c * flow[<s, d, c, u>];")],
}

# ---------------------------------------------------------------------- production planning
P_BAL = "ctBalance: stock[p][t-1] + produce[p][t] - demand[p][t] == stock[p][t];"
P_CAP = "ctCapacity: sum(p in Products) hoursPerUnit[p] * produce[p][t] <= capacityHours[t];"
P_OBJ = "minimize sum(p in Products, t in Periods) (prodCost[p] * produce[p][t] + holdCost[p] * stock[p][t]);"
PRODUCTION = {
    "as written": [],
    "unlabelled": [(P_BAL, P_BAL[11:]), (P_CAP, P_CAP[12:]), ("ctFirstBalance: ", "")],
    "sides swapped": [(P_BAL, "ctBalance: stock[p][t] == stock[p][t-1] + produce[p][t] - demand[p][t];")],
    "demand moved across": [(P_BAL, "ctBalance: stock[p][t-1] + produce[p][t] - stock[p][t] == demand[p][t];")],
    "t >= 2": [("t in Periods : t > 1", "t in Periods : t >= 2")],
    "nested foralls": [("forall(p in Products, t in Periods : t > 1)\n    ",
                        "forall(p in Products)\n    forall(t in Periods : t > 1)\n      ")],
    "objective as two sums": [(P_OBJ, "minimize sum(p in Products, t in Periods) prodCost[p] * produce[p][t]\n"
                                      "  + sum(p in Products, t in Periods) holdCost[p] * stock[p][t];")],
    "factors swapped": [(P_CAP, "ctCapacity: sum(p in Products) produce[p][t] * hoursPerUnit[p] <= capacityHours[t];")],
    "dexpr in between": [(P_OBJ, "dexpr float hoursUsed[t in Periods] = sum(p in Products) hoursPerUnit[p] * "
                                 "produce[p][t];\n" + P_OBJ), (P_CAP, "ctCapacity: hoursUsed[t] <= capacityHours[t];")],
}

# ---------------------------------------------------------------------- subtour elimination (run.py's)
S_DEG = "ctDegree: sum(e in Edges : e.i == v || e.j == v) x[e] == 2;"
S_SUB = "ctSubtour: sum(e in Edges : e.i in S[k] && e.j in S[k]) x[e] <= card(S[k]) - 1;"
S_SET = "{int} S[k in K] = {v | v in Nodes : (k div ftoi(pow(2, ord(Nodes, v)))) mod 2 == 1};"
S_OBJ = "minimize sum(e in Edges) dist[e] * x[e];"
S_IN = "sum(e in Edges : e.i in S[k] && e.j in S[k]) x[e]"
SUBTOUR = {
    "as written": [],
    "unlabelled": [(S_DEG, S_DEG[10:]), (S_SUB, S_SUB[11:])],
    "sides swapped": [(S_DEG, "ctDegree: 2 == sum(e in Edges : e.i == v || e.j == v) x[e];"),
                      (S_SUB, "ctSubtour: card(S[k]) - 1 >= %s;" % S_IN)],
    "constants moved across": [(S_DEG, "ctDegree: sum(e in Edges : e.i == v || e.j == v) x[e] - 2 == 0;"),
                               (S_SUB, "ctSubtour: %s - card(S[k]) + 1 <= 0;" % S_IN)],
    "1 moved across": [(S_SUB, "ctSubtour: %s + 1 <= card(S[k]);" % S_IN)],
    "== as two inequalities": [(S_DEG, "lo: sum(e in Edges : e.i == v || e.j == v) x[e] <= 2;\n"
                                       "  forall(v in Nodes)\n    hi: sum(e in Edges : e.i == v || e.j == v) x[e] >= 2;")],
    "degree as two sums": [(S_DEG, "ctDegree: sum(e in Edges : e.i == v) x[e] + sum(e in Edges : e.j == v) x[e] == 2;")],
    "filters reordered, v == e.f": [(S_DEG, "ctDegree: sum(e in Edges : v == e.j || v == e.i) x[e] == 2;"),
                                    (S_SUB, "ctSubtour: sum(e in Edges : e.j in S[k] && e.i in S[k]) x[e] "
                                            "<= card(S[k]) - 1;")],
    "a filter always true, i != j": [(S_SUB, "ctSubtour: sum(e in Edges : e.i != e.j && e.i in S[k] && e.j in S[k]) "
                                             "x[e] <= card(S[k]) - 1;")],
    "tuple patterns": [(S_DEG, "ctDegree: sum(<a, b> in Edges : a == v || b == v) x[<a, b>] == 2;"),
                       (S_SUB, "ctSubtour: sum(<a, b> in Edges : a in S[k] && b in S[k]) x[<a, b>] "
                               "<= card(S[k]) - 1;"),
                       (S_OBJ, "minimize sum(<a, b> in Edges) dist[<a, b>] * x[<a, b>];")],
    "dexpr in between (degree)": [(S_OBJ, "dexpr float degree[v in Nodes] = sum(e in Edges : e.i == v || e.j == v) "
                                          "x[e];\n" + S_OBJ), (S_DEG, "ctDegree: degree[v] == 2;")],
    "dexpr in between (subtour rows)": [(S_OBJ, "dexpr float inside[k in K] = %s;\n%s" % (S_IN, S_OBJ)),
                                        (S_SUB, "ctSubtour: inside[k] <= card(S[k]) - 1;")],
    "scalar dexpr objective": [(S_OBJ, "dexpr float tourLength = sum(e in Edges) dist[e] * x[e];\n"
                                       "minimize tourLength;")],
    "subsets by v - 1, != 0": [(S_SET, "{int} S[k in K] = {v | v in Nodes : (k div ftoi(pow(2, v - 1))) mod 2 != 0};")],
    "nodes as a set": [("range Nodes = 1..n;", "{int} Nodes = asSet(1..n);")],
    "rows only for 2+ cities": [("forall(k in K)\n", "forall(k in K : card(S[k]) >= 2)\n")],
}

# ---------------------------------------------------------------------- issue 46: multi-commodity network design
M_OUT = "sum(a in Arcs : a.o == n) flow[a][k]"
M_IN = "sum(a in Arcs : a.d == n) flow[a][k]"
M_RHS = "(n == k.o ? k.demand : (n == k.d ? -k.demand : 0))"
M_ROW = "ctBalance: %s - %s\n               == %s;" % (M_OUT, M_IN, M_RHS)
MCND = {
    "as written": [],
    "right-hand side in a data array": [
        ("dvar float+", "float rhs[n in Nodes][k in Commodities] = %s;\n\ndvar float+" % M_RHS),
        (M_ROW, "ctBalance: %s - %s == rhs[n][k];" % (M_OUT, M_IN))],
    "comparisons as 0/1": [(M_ROW, "ctBalance: %s - %s == k.demand * (n == k.o) - k.demand * (n == k.d);"
                            % (M_OUT, M_IN))],
    "sides swapped": [(M_ROW, "ctBalance: %s == %s - %s;" % (M_RHS, M_OUT, M_IN))],
    "inflow first": [(M_ROW, "ctBalance: -%s + %s == %s;" % (M_IN, M_OUT, M_RHS))],
    "tuple patterns": [(M_ROW, "ctBalance: sum(<o, d, c, f, u> in Arcs : o == n) flow[<o, d, c, f, u>][k]"
                               " - sum(<o, d, c, f, u> in Arcs : d == n) flow[<o, d, c, f, u>][k] == %s;" % M_RHS)],
    "nested foralls": [("forall(n in Nodes, k in Commodities)\n    ctBalance",
                        "forall(n in Nodes)\n    forall(k in Commodities)\n      ctBalance")],
    "unlabelled": [("ctBalance: ", ""), ("ctCapacity: ", "")],
    "capacity moved across": [("ctCapacity: sum(k in Commodities) flow[a][k] <= a.cap * open[a];",
                               "ctCapacity: sum(k in Commodities) flow[a][k] - a.cap * open[a] <= 0;")],
    # (issue 46, second round) a self-loop's `flow / 1000` twice in its rows: fractions repeated in a row
    "balance in thousands": [(M_ROW, "ctBalance: sum(a in Arcs : a.o == n) flow[a][k] / 1000"
                                     " - sum(a in Arcs : a.d == n) flow[a][k] / 1000 == %s / 1000;" % M_RHS)],
    "indexed labels": [("dvar boolean open[Arcs];", "dvar boolean open[Arcs];\nconstraint ctBalance[Nodes][Commodities];"
                        "\nconstraint ctCapacity[Arcs];"),
                       ("ctBalance:", "ctBalance[n][k]:"), ("ctCapacity:", "ctCapacity[a]:")],
    # (issue 46, round 7) the network-flow practitioner's arc sets: a `sum` over one cell of a set array
    "out/in arc sets": [("dvar float+", "{arc} outArcs[n in Nodes] = {a | a in Arcs : a.o == n};\n"
                                        "{arc} inArcs[n in Nodes] = {a | a in Arcs : a.d == n};\n\ndvar float+"),
                        (M_ROW, "ctBalance: sum(a in outArcs[n]) flow[a][k] - sum(a in inArcs[n]) flow[a][k]\n"
                                "               == %s;" % M_RHS)],
}

# ---------------------------------------------------------------------- issue 46: unit commitment
U_DEMAND = ("forall(t in Periods) {\n    ctDemand: sum(u in Units) p[u][t] == demand[t];\n"
            "    ctReserve: sum(u in Units) pmax[u] * on[u][t] >= demand[t] + reserve[t];\n  }")
U_MINUP = "ctMinUp: sum(s in t-minUp[u]+1..t : s >= 1) start[u][s] <= on[u][t];"
UC_UNITS = """  forall(u in Units, t in Periods) {
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
    ctMinUp: sum(s in t-minUp[u]+1..t : s >= 1) start[u][s] <= on[u][t];"""
UC_LABELS = "".join("constraint %s[Units][Periods];\n" % c for c in (
    "ctMin", "ctMax", "ctMinUp", "ctRampUp", "ctRampDown", "ctStart")) + "constraint ctFirstStart[Units];\n"
UC_BODY = """  forall(u in Units) {
    forall(t in Periods) {
      ctMin[u][t]: p[u][t] >= pmin[u] * on[u][t];
      ctMax[u][t]: p[u][t] <= pmax[u] * on[u][t];
      ctMinUp[u][t]: sum(s in t-minUp[u]+1..t : s >= 1) start[u][s] <= on[u][t];
      if (t == 1)
        ctFirstStart[u]: start[u][1] >= on[u][1];
      else {
        ctRampUp[u][t]: p[u][t] - p[u][t-1] <= ramp[u];
        ctRampDown[u][t]: p[u][t-1] - p[u][t] <= ramp[u];
        ctStart[u][t]: start[u][t] >= on[u][t] - on[u][t-1];
      }
    }
  }"""
UNITCOMMIT = {
    "as written": [],
    "one constraint per forall": [
        (U_DEMAND, "forall(t in Periods)\n    ctDemand: sum(u in Units) p[u][t] == demand[t];\n"
                   "  forall(t in Periods)\n    ctReserve: sum(u in Units) pmax[u] * on[u][t] >= demand[t] + reserve[t];"),
        ("forall(u in Units, t in Periods) {\n    ctMin: p[u][t] >= pmin[u] * on[u][t];\n"
         "    ctMax: p[u][t] <= pmax[u] * on[u][t];\n  }",
         "forall(u in Units, t in Periods)\n    ctMin: p[u][t] >= pmin[u] * on[u][t];\n"
         "  forall(u in Units, t in Periods)\n    ctMax: p[u][t] <= pmax[u] * on[u][t];")],
    "min-up as a filter over all periods": [
        (U_MINUP, "ctMinUp: sum(s in Periods : s >= t - minUp[u] + 1 && s <= t) start[u][s] <= on[u][t];")],
    "min-up range from maxl": [(U_MINUP, "ctMinUp: sum(s in maxl(1, t - minUp[u] + 1)..t) start[u][s] <= on[u][t];")],
    "ramps with the limit moved across": [
        ("ctRampUp: p[u][t] - p[u][t-1] <= ramp[u];", "ctRampUp: p[u][t] <= p[u][t-1] + ramp[u];"),
        ("ctRampDown: p[u][t-1] - p[u][t] <= ramp[u];", "ctRampDown: p[u][t-1] <= p[u][t] + ramp[u];")],
    "start with on moved across": [("ctStart: start[u][t] >= on[u][t] - on[u][t-1];",
                                    "ctStart: start[u][t] - on[u][t] + on[u][t-1] >= 0;")],
    "unlabelled": [(x, "") for x in ("ctDemand: ", "ctReserve: ", "ctMin: ", "ctMax: ", "ctFirstStart: ",
                                     "ctRampUp: ", "ctRampDown: ", "ctStart: ", "ctMinUp: ")],
    "nested foralls": [("forall(u in Units, t in Periods)\n    ctMinUp",
                        "forall(u in Units)\n    forall(t in Periods)\n      ctMinUp")],
    # (issue 46, second round) a `?:` with a decision in a branch; one braced body per unit holding
    # nested `forall`s, an `if` and indexed labels
    "first start by ?:": [
        ("  forall(u in Units)\n    ctFirstStart: start[u][1] >= on[u][1];\n", ""),
        ("    ctStart: start[u][t] >= on[u][t] - on[u][t-1];\n", ""),
        ("  forall(u in Units, t in Periods)\n    ctMinUp",
         "  forall(u in Units, t in Periods)\n    ctStart: start[u][t] >= on[u][t] - (t > 1 ? on[u][t-1] : 0);\n"
         "  forall(u in Units, t in Periods)\n    ctMinUp")],
    "one body per unit": [(UC_UNITS, UC_BODY), ("dvar boolean start[Units][Periods];\n",
                                                "dvar boolean start[Units][Periods];\n" + UC_LABELS)],
}

# ---------------------------------------------------------------------- issue 46: sparse generalised assignment
G_TASK = "ctTask: sum(<i, j, c> in Pairs : j == k) x[<i, j, c>] == 1;"
G_WORKER = "ctWorker: sum(p in Pairs : p.i == w) x[p] <= capacity[w];"
SPARSE = {
    "as written": [],
    "fields throughout": [(G_TASK, "ctTask: sum(p in Pairs : p.j == k) x[p] == 1;")],
    "patterns throughout": [(G_WORKER, "ctWorker: sum(<i, j, c> in Pairs : i == w) x[<i, j, c>] <= capacity[w];")],
    "k == p.j, reversed": [(G_TASK, "ctTask: sum(p in Pairs : k == p.j) x[p] == 1;"),
                           (G_WORKER, "ctWorker: sum(p in Pairs : w == p.i) x[p] <= capacity[w];")],
    "pattern objective": [("minimize sum(p in Pairs) p.c * x[p];",
                           "minimize sum(<i, j, c> in Pairs) c * x[<i, j, c>];")],
    "unlabelled": [(G_TASK, G_TASK[8:]), (G_WORKER, G_WORKER[10:])],
    "dexpr in between": [("minimize", "dexpr float load[w in Workers] = sum(p in Pairs : p.i == w) x[p];\nminimize"),
                         (G_WORKER, "ctWorker: load[w] <= capacity[w];")],
    "a conjunct always true": [(G_WORKER, "ctWorker: sum(p in Pairs : p.i == w && p.c >= 0) x[p] <= capacity[w];")],
}

#: family -> (generator in ``models``, its largest benchmark size, a small size for tests, spellings)
FAMILIES = {
    "issue31": ("issue31", [64000], [40], ISSUE31),
    "assignment": ("assignment", [3162], [6], ASSIGNMENT),
    "transport": ("transport", [3162, 3162], [5, 7], TRANSPORT),
    "facility": ("facility", [316, 10000], [3, 8], FACILITY),
    "netflow": ("netflow", [64000], [40], NETFLOW),
    "production": ("production", [3000, 1200], [4, 6], PRODUCTION),
    "subtour": ("subtour", [17], [6], SUBTOUR),
    "mcnd": ("mcnd", [200, 10, 333], [12, 3, 5], MCND),
    "unitcommit": ("unitcommit", [200, 336], [3, 10], UNITCOMMIT),
    "sparse_assign": ("sparse_assign", [2000, 16000, 200], [4, 9, 3], SPARSE),
}


def spelled(family: str, name: str, base: str | None = None) -> str:
    """The family's model text (``base``, by default the generator's own) with spelling ``name`` applied;
    AssertionError when a replacement does not apply (the model text changed under it)."""
    generator = FAMILIES[family][0]
    text = base if base is not None else _model_text(generator)
    for old, new in FAMILIES[family][3][name]:
        assert old in text, (family, name, old)
        text = text.replace(old, new)
    return text


def _model_text(generator: str) -> str:
    return {"issue31": models.ISSUE31_MOD, "assignment": models.ASSIGNMENT_MOD, "transport": models.TRANSPORT_MOD,
            "facility": models.FACILITY_MOD, "netflow": models.NETFLOW_MOD,
            "production": models.PRODUCTION_MOD, "subtour": models.SUBTOUR_MOD,
            "mcnd": models.families6.MCND_MOD, "unitcommit": models.families6.UC_MOD,
            "sparse_assign": models.families6.SPARSE_MOD}[generator]
