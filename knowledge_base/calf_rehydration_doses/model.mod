// Doses for a dehydrated calf (integer program): the cheapest whole doses of each product that
// give every ingredient at least its minimum and at most its maximum over the day.

{string} Products = ...;                       // Paste, Drench, Gel
{string} Ingredients = ...;                    // Electrolytes, Glucose, Potassium
float perDose[Products][Ingredients] = ...;    // amount of an ingredient in one dose
float price[Products] = ...;                   // $ per dose
float minTotal[Ingredients] = ...;             // the day's minimum of each ingredient (0: none)
float maxTotal[Ingredients] = ...;             // the day's maximum (a large number: no cap)
int maxDoses = ...;                            // doses of one product allowed per day

// Doses of each product over the day: whole doses only.
dvar int doses[Products] in 0..maxDoses;

// The price of the day's treatment.
minimize sum(p in Products) price[p] * doses[p];

subject to {
  // Every ingredient reaches its minimum (electrolytes, glucose)...
  forall(i in Ingredients)
    ctAtLeast: sum(p in Products) perDose[p][i] * doses[p] >= minTotal[i];

  // ...and stays under its maximum (potassium is harmful in excess).
  forall(i in Ingredients)
    ctAtMost: sum(p in Products) perDose[p][i] * doses[p] <= maxTotal[i];
}
