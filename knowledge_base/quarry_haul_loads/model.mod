// Gravel loads from a quarry (integer program): how many loads of each kind of lorry.
// Choose whole numbers of trips of alternatives that share one requirement, with a ratio rule.

{string} Kinds = ...;               // Tipper, Articulated
float tonnesPerLoad[Kinds] = ...;   // tonnes carried by one load
float litresPerLoad[Kinds] = ...;   // diesel burnt by one load
int maxLoads[Kinds] = ...;          // loads allowed per shift (gate limit, drivers)
float tonnesNeeded = ...;           // tonnes the site needs this shift
float quietRatio = ...;             // tipper loads >= 1.5 x articulated loads

// Loads of each kind this shift: whole lorries, at most the allowed number.
dvar int loads[k in Kinds] in 0..maxLoads[k];

// Total diesel burnt in the shift.
minimize sum(k in Kinds) litresPerLoad[k] * loads[k];

subject to {
  // The site receives at least what it needs.
  ctTonnes: sum(k in Kinds) tonnesPerLoad[k] * loads[k] >= tonnesNeeded;

  // The council's ratio, written linearly (no division by the articulated count).
  ctQuiet: loads["Tipper"] >= quietRatio * loads["Articulated"];
}
