// Minimum-cost transshipment over a sparse list of lanes (tuple set).

{string} Sites = ...;
tuple Lane {
  string src;
  string dst;
  float cost;      // $ per tonne
  float cap;       // tonnes per week
}
{Lane} Lanes = ...;
// Net supply: positive at mills, 0 at hubs, minus the need at co-operatives.
float netSupply[Sites] = ...;

dvar float+ flow[Lanes];

minimize sum(l in Lanes) l.cost * flow[l];

subject to {
  forall(l in Lanes)
    ctLaneCap: flow[l] <= l.cap;
  // Flow conservation: out - in <= net supply. At a hub (0) this means
  // nothing is created; at a co-operative (negative) it receives at least
  // its need; a mill ships at most its output. Costs are positive, so no
  // feed is ever dumped at a hub.
  forall(s in Sites)
    ctBalance: sum(l in Lanes : l.src == s) flow[l] - sum(l in Lanes : l.dst == s) flow[l] <= netSupply[s];
}
