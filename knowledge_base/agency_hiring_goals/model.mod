// Goal programming: soft targets become constraints with deviation
// variables; the objective weights the unwanted deviations only.

{string} Roles = ...;
float salary[Roles] = ...;        // $k per year
float billable[Roles] = ...;      // hours per year
int desks = ...;
int maxJuniors = ...;
float hoursGoal = ...;
float payrollGoal = ...;          // $k
float seniorShareGoal = ...;      // 0.30
int contractorGoal = ...;
// penalty points per unit of deviation
float wHours = ...;               // per hour short (5 per 100 h)
float wPayroll = ...;             // per $k over (3 per $10k)
float wSenior = ...;
float wContractor = ...;

dvar int+ staff[Roles];
// Deviation variables: only the undesired direction is needed for each goal.
dvar float+ hoursShort;
dvar float+ payrollOver;
dvar float+ seniorShort;
dvar float+ contractorsOver;

minimize wHours * hoursShort + wPayroll * payrollOver
       + wSenior * seniorShort + wContractor * contractorsOver;

subject to {
  // Hard limits.
  ctDesks: sum(r in Roles) staff[r] <= desks;
  ctMentoring: staff["Junior"] <= maxJuniors;

  // Goal 1: hours + shortfall >= target.
  ctGoalHours: sum(r in Roles) billable[r] * staff[r] + hoursShort >= hoursGoal;
  // Goal 2: payroll - overrun <= budget.
  ctGoalPayroll: sum(r in Roles) salary[r] * staff[r] - payrollOver <= payrollGoal;
  // Goal 3 (ratio goal, linear form): seniors + short >= 30% of staff.
  ctGoalSeniors: staff["Senior"] + seniorShort >= seniorShareGoal * sum(r in Roles) staff[r];
  // Goal 4: contractors - excess <= 4.
  ctGoalContractors: staff["Contractor"] - contractorsOver <= contractorGoal;
}
