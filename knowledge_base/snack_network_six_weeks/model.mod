// Multi-period production-distribution LP: transportation each week plus
// inventory balance at the depots (a few hundred variables).

{string} Factories = ...;
{string} Depots = ...;
int nbWeeks = ...;
range Weeks = 1..nbWeeks;
float capacity[Factories] = ...;          // cases per week
float makeCost[Factories] = ...;          // $ per case
float shipCost[Factories][Depots] = ...;  // $ per case
float orders[Depots][Weeks] = ...;        // cases
float holdCost = ...;                     // $ per case per week at a depot

dvar float make[f in Factories][Weeks] in 0..capacity[f];
dvar float+ ship[Factories][Depots][Weeks];
dvar float+ stock[Depots][Weeks];         // depot stock at week end

minimize sum(f in Factories, t in Weeks) makeCost[f] * make[f][t]
       + sum(f in Factories, d in Depots, t in Weeks) shipCost[f][d] * ship[f][d][t]
       + sum(d in Depots, t in Weeks) holdCost * stock[d][t];

subject to {
  // A factory ships exactly what it makes in the week.
  forall(f in Factories, t in Weeks)
    ctShipMade: sum(d in Depots) ship[f][d][t] == make[f][t];
  // Depot inventory balance; depots start empty.
  forall(d in Depots)
    ctDepotFirst: sum(f in Factories) ship[f][d][1] == orders[d][1] + stock[d][1];
  forall(d in Depots, t in Weeks : t > 1)
    ctDepot: stock[d][t-1] + sum(f in Factories) ship[f][d][t] == orders[d][t] + stock[d][t];
}
