// Cash-flow matching (bond dedication): a cash balance carried between years,
// exactly like inventory carried between periods.

{string} Bonds = ...;
int nbYears = ...;
range Years = 1..nbYears;
float price[Bonds] = ...;              // $ per unit today
float cashflow[Bonds][Years] = ...;    // coupon (+ face at maturity) per unit
float liability[Years] = ...;          // payment due at end of year
float depositRate = ...;               // 0.02

dvar float+ units[Bonds];
dvar float+ surplus[Years];            // cash left on deposit after year t

minimize sum(b in Bonds) price[b] * units[b];

subject to {
  // Year 1: bond income = payment + money put on deposit.
  ctCashFirst: sum(b in Bonds) cashflow[b][1] * units[b] == liability[1] + surplus[1];
  // Later years: last year's deposit grows by 2% and joins the bond income.
  forall(t in Years : t > 1)
    ctCash: (1 + depositRate) * surplus[t-1] + sum(b in Bonds) cashflow[b][t] * units[b]
            == liability[t] + surplus[t];
}
