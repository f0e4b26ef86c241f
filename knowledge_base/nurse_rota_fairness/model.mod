// Rostering with a max-min (fairness) objective via an epigraph variable.

{string} Nurses = ...;
int nbDays = ...;
range Days = 1..nbDays;
{string} Shifts = ...;                      // Day, Night
int needed[Shifts] = ...;                   // nurses per shift
int minShifts = ...;
int maxShifts = ...;
int score[Nurses][Days][Shifts] = ...;      // preference 1..5

dvar boolean works[Nurses][Days][Shifts];
dvar float+ worstSatisfaction;             // epigraph variable for min over nurses

maximize worstSatisfaction;

subject to {
  // Staffing of every shift.
  forall(d in Days, s in Shifts)
    ctCover: sum(n in Nurses) works[n][d][s] == needed[s];
  // Workload window per nurse (at least k and at most k').
  forall(n in Nurses)
    ctWorkload: minShifts <= sum(d in Days, s in Shifts) works[n][d][s] <= maxShifts;
  // At most one shift per day.
  forall(n in Nurses, d in Days)
    ctOnePerDay: sum(s in Shifts) works[n][d][s] <= 1;
  // No day shift right after a night shift.
  forall(n in Nurses, d in Days : d < nbDays)
    ctRest: works[n][d]["Night"] + works[n][d+1]["Day"] <= 1;
  // Max-min: worstSatisfaction is below every nurse's satisfaction.
  forall(n in Nurses)
    ctFair: worstSatisfaction <= sum(d in Days, s in Shifts) score[n][d][s] * works[n][d][s];
}
