// Weighted max-min fairness (first level) as an LP with an epigraph variable.

{string} Links = ...;
{string} Flows = ...;
float capacity[Links] = ...;   // Mbps
float weight[Flows] = ...;
{string} route[Flows] = ...;   // links used by each flow

dvar float+ rate[Flows];       // Mbps
dvar float+ share;             // common level: rate >= weight * share

maximize share;

subject to {
  forall(l in Links)
    ctCapacity: sum(f in Flows : l in route[f]) rate[f] <= capacity[l];
  // Max-min: every flow gets at least its weighted share.
  forall(f in Flows)
    ctFair: rate[f] >= weight[f] * share;
}
