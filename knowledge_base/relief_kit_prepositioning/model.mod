// Two-stage stochastic facility location: open + stock now (first stage),
// ship or air-lift once the storm is known (second stage).

{string} Warehouses = ...;
{string} Regions = ...;
{string} Storms = ...;
float prob[Storms] = ...;
float need[Storms][Regions] = ...;
float leaseCost[Warehouses] = ...;
float capacity[Warehouses] = ...;
float kitCost = ...;
float truckCost[Warehouses][Regions] = ...;
float airliftCost = ...;

dvar boolean lease[Warehouses];
dvar float+ kits[Warehouses];
dvar float+ ship[Storms][Warehouses][Regions];
dvar float+ airlift[Storms][Regions];

minimize sum(w in Warehouses) (leaseCost[w] * lease[w] + kitCost * kits[w])
       + sum(s in Storms) prob[s] * (sum(w in Warehouses, r in Regions) truckCost[w][r] * ship[s][w][r]
                                    + sum(r in Regions) airliftCost * airlift[s][r]);

subject to {
  // Fixed charge: stock only in leased warehouses, up to their capacity.
  forall(w in Warehouses)
    ctStock: kits[w] <= capacity[w] * lease[w];
  // Second stage per storm: ship no more than the stock ...
  forall(s in Storms, w in Warehouses)
    ctShipFromStock: sum(r in Regions) ship[s][w][r] <= kits[w];
  // ... and meet every region's need by truck or by air.
  forall(s in Storms, r in Regions)
    ctNeed: sum(w in Warehouses) ship[s][w][r] + airlift[s][r] >= need[s][r];
}
