// Markowitz mean-variance: convex quadratic objective, linear constraints.

{string} Assets = ...;
float expReturn[Assets] = ...;          // percent per year
float cov[Assets][Assets] = ...;        // squared percent
float targetReturn = ...;               // percent
float maxWeight = ...;

// Fraction of the savings in each class (no short selling, at most 50%).
dvar float weight[Assets] in 0..maxWeight;

// Portfolio variance w' * Cov * w (squared percent).
minimize sum(i in Assets, j in Assets) cov[i][j] * weight[i] * weight[j];

subject to {
  ctFullyInvested: sum(a in Assets) weight[a] == 1;
  ctTarget: sum(a in Assets) expReturn[a] * weight[a] >= targetReturn;
}
