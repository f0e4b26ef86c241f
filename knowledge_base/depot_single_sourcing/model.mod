// Capacitated facility location with single sourcing.

{string} Depots = ...;
{string} Shops = ...;
float leaseCost[Depots] = ...;       // $ per week if leased
float capacity[Depots] = ...;        // pallets per week
float need[Shops] = ...;             // pallets per week
float perPallet[Depots][Shops] = ...;// delivery $ per pallet

dvar boolean lease[Depots];
// serves[d][s] = 1 if depot d supplies all of shop s.
dvar boolean serves[Depots][Shops];

minimize sum(d in Depots) leaseCost[d] * lease[d]
       + sum(d in Depots, s in Shops) perPallet[d][s] * need[s] * serves[d][s];

subject to {
  // Single sourcing: exactly one depot per shop.
  forall(s in Shops)
    ctOneDepot: sum(d in Depots) serves[d][s] == 1;

  // Capacity of a leased depot; an unleased depot has capacity 0
  // (fixed charge: the lease binary multiplies the capacity).
  forall(d in Depots)
    ctCapacity: sum(s in Shops) need[s] * serves[d][s] <= capacity[d] * lease[d];

  // Redundant but tightening: a shop can only be served by a leased depot.
  forall(d in Depots, s in Shops)
    ctOnlyLeased: serves[d][s] <= lease[d];
}
