// Set partitioning: choose columns (pairings) so that every row (leg) is
// covered exactly once.

{string} Legs = ...;
{string} Pairings = ...;
float cost[Pairings] = ...;            // $k
{string} legsOf[Pairings] = ...;       // legs flown by each pairing

dvar boolean choose[Pairings];

minimize sum(p in Pairings) cost[p] * choose[p];

subject to {
  // Partitioning: == 1 (covering would be >= 1, packing <= 1).
  forall(l in Legs)
    ctExactlyOnce: sum(p in Pairings : l in legsOf[p]) choose[p] == 1;
}
