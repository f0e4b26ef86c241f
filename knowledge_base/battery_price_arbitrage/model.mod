// Storage scheduling: state-of-charge balance (inventory) and a binary that
// forbids charging and discharging in the same hour (big-M = power rating).

int nbHours = ...;
range Hours = 1..nbHours;
float price[Hours] = ...;        // $/MWh, may be negative
float capacity = ...;            // MWh
float initialEnergy = ...;       // MWh
float finalEnergyMin = ...;      // MWh
float maxPower = ...;            // MW (= MWh per hour)
float chargeEff = ...;           // stored per MWh drawn
float dischargeEff = ...;        // delivered per MWh released
float wearCost = ...;            // $ per MWh delivered

dvar float+ charge[Hours];       // MWh drawn from the grid
dvar float+ discharge[Hours];    // MWh delivered to the grid
dvar float stored[Hours] in 0..capacity;
dvar boolean charging[Hours];    // 1 = charging mode, 0 = discharging mode

maximize sum(h in Hours) (price[h] * (discharge[h] - charge[h]) - wearCost * discharge[h]);

subject to {
  // Energy balance (inventory of stored energy).
  ctBalanceFirst: stored[1] == initialEnergy + chargeEff * charge[1] - discharge[1] / dischargeEff;
  forall(h in Hours : h > 1)
    ctBalance: stored[h] == stored[h-1] + chargeEff * charge[h] - discharge[h] / dischargeEff;
  ctFinal: stored[nbHours] >= finalEnergyMin;
  // Mode switch: without it the LP would charge and discharge at once in
  // hour 3 to burn paid-for energy. The big-M is the power rating.
  forall(h in Hours) {
    ctChargeMode: charge[h] <= maxPower * charging[h];
    ctDischargeMode: discharge[h] <= maxPower * (1 - charging[h]);
  }
}
