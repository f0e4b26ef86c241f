// Buying washing machines (integer program): the fewest machines of two kinds that meet a
// throughput requirement under a shared resource limit and a share rule.
// The objective counts the machines themselves; the requirement is a covering row (>=).

{string} Kinds = ...;              // TopLoad, FrontLoad
float itemsPerHour[Kinds] = ...;   // items one machine washes per hour
float kwhPerHour[Kinds] = ...;     // electricity one machine draws per hour
float itemsNeeded = ...;           // items per hour the shop must be able to wash
float kwhAvailable = ...;          // electricity available to the washers per hour
float maxFrontShare = ...;         // front-loaders: at most this share of all machines
int minTopLoaders = ...;           // the owner's minimum of top-loaders

// Machines of each kind: whole machines.
dvar int+ machines[Kinds];

// As few machines as possible.
minimize sum(k in Kinds) machines[k];

subject to {
  // Enough washing capacity at the busiest hour.
  ctThroughput: sum(k in Kinds) itemsPerHour[k] * machines[k] >= itemsNeeded;

  // Within the electrical supply.
  ctPower: sum(k in Kinds) kwhPerHour[k] * machines[k] <= kwhAvailable;

  // "At most 40% of the machines": a share of a sum of variables, written linearly.
  ctDrains: machines["FrontLoad"] <= maxFrontShare * sum(k in Kinds) machines[k];

  ctTopLoaders: machines["TopLoad"] >= minTopLoaders;
}
