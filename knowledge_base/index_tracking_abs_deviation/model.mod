// Minimum mean absolute deviation: |x| linearised with one variable per
// month bounded below by both +dev and -dev.

{string} Stocks = ...;
int nbMonths = ...;
range Months = 1..nbMonths;
float ret[Months][Stocks] = ...;   // percent
float indexRet[Months] = ...;      // percent
float maxWeight = ...;

dvar float weight[Stocks] in 0..maxWeight;
dvar float+ gap[Months];           // |portfolio return - index return|

minimize sum(t in Months) gap[t] / nbMonths;

subject to {
  ctBudget: sum(s in Stocks) weight[s] == 1;
  // Absolute value: gap >= dev and gap >= -dev. Minimisation pushes gap
  // down to |dev|. (This only works because gap is minimised.)
  forall(t in Months) {
    ctAbove: gap[t] >= sum(s in Stocks) ret[t][s] * weight[s] - indexRet[t];
    ctBelow: gap[t] >= indexRet[t] - sum(s in Stocks) ret[t][s] * weight[s];
  }
}
