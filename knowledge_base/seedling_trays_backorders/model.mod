// Multi-period production with inventory AND backlog: the net position of a week is
// stock on hand minus orders owed, each with its own cost per week.

int nbWeeks = ...;
range Weeks = 1..nbWeeks;
float orders[Weeks] = ...;     // trays due each week
float regularCap = ...;        // trays a week in regular time
float overtimeCap = ...;       // extra trays a week in overtime
float regularCost = ...;       // $ per tray in regular time
float overtimeCost = ...;      // $ per tray in overtime
float holdCost = ...;          // $ per tray in the cold room per week
float lateCost = ...;          // $ per tray owed per week (goodwill penalty)

dvar float regular[Weeks] in 0..regularCap;
dvar float overtime[Weeks] in 0..overtimeCap;
// stock[t]: trays in the cold room at the end of week t; owed[t]: trays ordered but not yet filled.
dvar float+ stock[Weeks];
dvar float+ owed[Weeks];

minimize sum(t in Weeks)
  (regularCost * regular[t] + overtimeCost * overtime[t] + holdCost * stock[t] + lateCost * owed[t]);

subject to {
  // Balance: last week's net position + trays started = this week's orders + new net position,
  // where a net position is stock minus orders owed. The first week starts from nothing.
  ctBalanceFirst: regular[1] + overtime[1] - orders[1] == stock[1] - owed[1];
  forall(t in Weeks : t > 1)
    ctBalance: stock[t-1] - owed[t-1] + regular[t] + overtime[t] - orders[t] == stock[t] - owed[t];

  // Every order is filled by the end of the horizon.
  ctAllFilled: owed[nbWeeks] == 0;
}
