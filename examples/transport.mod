// Transportation: ship a product from plants to markets at least cost.
// Each plant ships at most its supply; each market receives at least its demand.
{string} Plants = ...;
{string} Markets = ...;
float supply[Plants] = ...;          // units available at each plant
float demand[Markets] = ...;         // units required at each market
float cost[Plants][Markets] = ...;   // cost of shipping one unit

dvar float+ ship[Plants][Markets];   // units shipped from plant p to market m

minimize sum(p in Plants, m in Markets) cost[p][m] * ship[p][m];

subject to {
  forall(p in Plants)
    ctSupply: sum(m in Markets) ship[p][m] <= supply[p];
  forall(m in Markets)
    ctDemand: sum(p in Plants) ship[p][m] >= demand[m];
}
