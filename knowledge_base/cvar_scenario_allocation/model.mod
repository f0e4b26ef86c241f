// CVaR over equally likely scenarios (Rockafellar-Uryasev linearisation).

{string} Assets = ...;
int nbScen = ...;
range Scenarios = 1..nbScen;
float ret[Scenarios][Assets] = ...;     // percent
float alpha = ...;                      // 0.75
float maxCvar = ...;                    // percent

dvar float+ weight[Assets];
dvar float valueAtRisk;                 // VaR level (free variable)
dvar float+ excess[Scenarios];          // loss beyond var in each scenario

// Expected return with equal scenario probabilities.
maximize sum(s in Scenarios, a in Assets) ret[s][a] * weight[a] / nbScen;

subject to {
  ctBudget: sum(a in Assets) weight[a] == 1;
  // excess >= loss - VaR, with loss = -return.
  forall(s in Scenarios)
    ctExcess: excess[s] >= -sum(a in Assets) ret[s][a] * weight[a] - valueAtRisk;
  // CVaR = VaR + expected excess / (1 - alpha) <= limit.
  ctCvar: valueAtRisk + sum(s in Scenarios) excess[s] / ((1 - alpha) * nbScen) <= maxCvar;
}
