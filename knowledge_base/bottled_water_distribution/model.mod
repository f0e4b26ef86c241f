// Transportation problem: ship from plants (supply) to centres (demand).

{string} Plants = ...;
{string} Centres = ...;
float supply[Plants] = ...;            // pallets available this week
float demand[Centres] = ...;           // pallets required
float cost[Plants][Centres] = ...;     // $ per pallet

dvar float+ ship[Plants][Centres];

minimize sum(p in Plants, c in Centres) cost[p][c] * ship[p][c];

subject to {
  // A plant cannot ship more than it bottled (<=: leftovers stay at the plant).
  forall(p in Plants)
    ctSupply: sum(c in Centres) ship[p][c] <= supply[p];
  // Every centre gets at least its requirement.
  forall(c in Centres)
    ctDemand: sum(p in Plants) ship[p][c] >= demand[c];
}
