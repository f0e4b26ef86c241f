// Lexicographic (preemptive) objectives in one solve via dominant weights.
// Emissions change in steps of 1100 kt (one gas unit) while the whole cost
// range is below 1100 * 10 $M, so a weight of 10 on emissions makes any
// emission saving worth more than every possible cost difference.

{string} Options = ...;
float buildCost[Options] = ...;    // $M per unit
float firmMW[Options] = ...;
float energyTWh[Options] = ...;
float co2[Options] = ...;          // kt per year per unit
int maxUnits[Options] = ...;
float firmNeed = ...;
float energyNeed = ...;
float emissionWeight = ...;        // 10: see the argument above

dvar int build[o in Options] in 0..maxUnits[o];
dexpr float emissions = sum(o in Options) co2[o] * build[o];
dexpr float cost = sum(o in Options) buildCost[o] * build[o];

minimize emissionWeight * emissions + cost;

subject to {
  ctFirm: sum(o in Options) firmMW[o] * build[o] >= firmNeed;
  ctEnergy: sum(o in Options) energyTWh[o] * build[o] >= energyNeed;
}
