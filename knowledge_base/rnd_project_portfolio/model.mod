// Capital budgeting: multi-dimensional knapsack plus logical project rules.

{string} Projects = ...;
int nbYears = ...;
range Years = 1..nbYears;
float npv[Projects] = ...;
float spend[Projects][Years] = ...;
float budget[Years] = ...;
int green[Projects] = ...;      // 1 = green project
int minGreen = ...;
int maxProjects = ...;

dvar boolean go[Projects];

maximize sum(p in Projects) npv[p] * go[p];

subject to {
  // Knapsack row per year.
  forall(t in Years)
    ctBudget: sum(p in Projects) spend[p][t] * go[p] <= budget[t];
  // Dependency as a logical implication (equivalent to go[AI] <= go[Data]).
  ctNeedsData: go["AI pricing"] == 1 => go["Data lake"] == 1;
  // Mutual exclusion (at most one of the two).
  ctDepot: !(go["Warehouse robots"] == 1 && go["Electric vans"] == 1);
  // At least k green projects, at most k' projects in total.
  ctGreen: sum(p in Projects : green[p] == 1) go[p] >= minGreen;
  ctOversight: sum(p in Projects) go[p] <= maxProjects;
}
