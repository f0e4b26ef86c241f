// Diet: the cheapest servings of each food that meet every nutrient minimum.

{string} Foods = ...;
{string} Nutrients = ...;                   // Energy, Protein, Calcium, VitaminC
float cost[Foods] = ...;                    // $ per serving
float perServing[Foods][Nutrients] = ...;   // nutrient amount in one serving
float minNeed[Nutrients] = ...;             // guideline minimum per plate
float maxServings[Foods] = ...;             // servings of a food allowed on one plate

// Servings of each food on the plate (fractional: portions are weighed).
dvar float serve[f in Foods] in 0..maxServings[f];

minimize sum(f in Foods) cost[f] * serve[f];

subject to {
  // Each nutrient reaches its guideline minimum.
  forall(n in Nutrients)
    ctNutrient: sum(f in Foods) perServing[f][n] * serve[f] >= minNeed[n];
}
