// Multi-period production planning with an inventory balance per month.

int nbMonths = ...;
range Months = 1..nbMonths;
float demand[Months] = ...;
float regularCap = ...;       // kayaks per month in regular time
float overtimeCap = ...;      // extra kayaks per month in overtime
float regularCost = ...;      // $ per kayak
float overtimeCost = ...;     // $ per kayak
float holdCost = ...;         // $ per kayak in stock at month end
float storeCap = ...;         // maximum stock
float initialStock = ...;
float finalStockMin = ...;

dvar float regular[Months] in 0..regularCap;
dvar float overtime[Months] in 0..overtimeCap;
// stock[t]: kayaks in store at the end of month t (bounded by the store size).
dvar float stock[Months] in 0..storeCap;

minimize sum(t in Months)
  (regularCost * regular[t] + overtimeCost * overtime[t] + holdCost * stock[t]);

subject to {
  // Inventory balance: what we had + what we build = what we ship + what we keep.
  // Month 1 starts from the current stock, later months from the previous month.
  ctBalanceFirst: initialStock + regular[1] + overtime[1] == demand[1] + stock[1];
  forall(t in Months : t > 1)
    ctBalance: stock[t-1] + regular[t] + overtime[t] == demand[t] + stock[t];

  // Stock left for the autumn show.
  ctFinal: stock[nbMonths] >= finalStockMin;
}
