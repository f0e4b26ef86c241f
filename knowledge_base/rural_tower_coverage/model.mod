// Maximal covering: a village counts only if some chosen site covers it.

{string} Sites = ...;
{string} Villages = ...;
float siteCost[Sites] = ...;          // $k
float population[Villages] = ...;     // hundreds
{string} covers[Sites] = ...;         // villages in range of each site
float budget = ...;

dvar boolean build[Sites];
dvar boolean covered[Villages];

maximize sum(v in Villages) population[v] * covered[v];

subject to {
  // Budget (knapsack row).
  ctBudget: sum(s in Sites) siteCost[s] * build[s] <= budget;
  // Covering link: covered[v] can be 1 only if a built site reaches v.
  forall(v in Villages)
    ctCovered: covered[v] <= sum(s in Sites : v in covers[s]) build[s];
}
