// Two-dimensional 0-1 knapsack with an at-most-k side constraint.

{string} Consignments = ...;
float weight[Consignments] = ...;
float volume[Consignments] = ...;
float revenue[Consignments] = ...;
int dangerous[Consignments] = ...;   // 1 = dangerous goods
float maxWeight = ...;
float maxVolume = ...;
int maxDangerous = ...;

dvar boolean take[Consignments];

maximize sum(c in Consignments) revenue[c] * take[c];

subject to {
  // Knapsack capacities: weight and volume.
  ctWeight: sum(c in Consignments) weight[c] * take[c] <= maxWeight;
  ctVolume: sum(c in Consignments) volume[c] * take[c] <= maxVolume;
  // At most k: count only the dangerous consignments.
  ctDangerous: sum(c in Consignments : dangerous[c] == 1) take[c] <= maxDangerous;
}
