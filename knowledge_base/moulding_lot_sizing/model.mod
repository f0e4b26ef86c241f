// Capacitated multi-item lot sizing: set-ups use press time and cost money.

{string} Parts = ...;
int nbWeeks = ...;
range Weeks = 1..nbWeeks;
float demand[Parts][Weeks] = ...;
float hoursPerUnit[Parts] = ...;
float setupHours[Parts] = ...;   // press time lost to a mould change
float setupCost[Parts] = ...;    // $ per mould change
float holdCost[Parts] = ...;     // $ per unit in stock at week end
float capacity = ...;            // press hours per week

dvar float+ make[Parts][Weeks];
dvar float+ stock[Parts][0..nbWeeks];   // stock[p][0] is the opening stock
dvar boolean setup[Parts][Weeks];       // 1 if part p is made in week t

minimize sum(p in Parts, t in Weeks) (setupCost[p] * setup[p][t] + holdCost[p] * stock[p][t]);

subject to {
  // No opening stock.
  forall(p in Parts)
    ctOpening: stock[p][0] == 0;

  // Inventory balance for every part and week.
  forall(p in Parts, t in Weeks)
    ctBalance: stock[p][t-1] + make[p][t] == demand[p][t] + stock[p][t];

  // Press hours: production plus the set-up time of every mould change.
  forall(t in Weeks)
    ctPress: sum(p in Parts) (hoursPerUnit[p] * make[p][t] + setupHours[p] * setup[p][t]) <= capacity;

  // Lot-sizing link: nothing is made without a set-up. The bound
  // capacity / hoursPerUnit is the most that could ever be made in a week.
  forall(p in Parts, t in Weeks)
    ctSetupLink: make[p][t] <= (capacity / hoursPerUnit[p]) * setup[p][t];
}
