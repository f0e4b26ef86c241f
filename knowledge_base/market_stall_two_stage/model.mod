// Two-stage stochastic LP (deterministic equivalent): first-stage stock,
// second-stage restock / sales / leftovers for every scenario.

{string} Items = ...;
{string} Crowds = ...;                    // scenarios
float prob[Crowds] = ...;
float demand[Crowds][Items] = ...;
float buyCost[Items] = ...;
float price[Items] = ...;
float rushCost[Items] = ...;
float leftoverValue[Items] = ...;
float space[Items] = ...;
float coolerSize = ...;
float rushLimit = ...;

// First stage: decided on Friday, the same in every scenario.
dvar float+ stock[Items];
// Second stage: one copy per scenario (recourse).
dvar float rush[Crowds][Items] in 0..rushLimit;
dvar float+ sold[Crowds][Items];
dvar float+ leftover[Crowds][Items];

maximize - sum(i in Items) buyCost[i] * stock[i]
         + sum(c in Crowds) prob[c] * sum(i in Items)
             (price[i] * sold[c][i] - rushCost[i] * rush[c][i] + leftoverValue[i] * leftover[c][i]);

subject to {
  ctCooler: sum(i in Items) space[i] * stock[i] <= coolerSize;
  forall(c in Crowds, i in Items) {
    // Cannot sell more than the crowd wants.
    ctDemand: sold[c][i] <= demand[c][i];
    // Units available = stock + rush restock = sold + leftover.
    ctUnits: stock[i] + rush[c][i] == sold[c][i] + leftover[c][i];
  }
}
