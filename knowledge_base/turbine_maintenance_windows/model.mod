// Time-indexed scheduling: a binary per (turbine, start week), with an
// indicator-style logical constraint for the optional contractor crew.

{string} Turbines = ...;
int nbWeeks = ...;
range Weeks = 1..nbWeeks;
int duration[Turbines] = ...;
float weeklyLoss[Weeks] = ...;     // $k lost per week for a standard turbine
float sizeFactor[Turbines] = ...;
float contractorCost = ...;        // $k
int crewsWithContractor = ...;     // turbines down at once with the contractor

// startAt[t][w] = 1 if turbine t starts servicing in week w.
dvar boolean startAt[Turbines][Weeks];
dvar boolean contractor;

// Lost output: a start in week w covers weeks w .. w+duration-1.
minimize sum(t in Turbines, w in Weeks, v in Weeks : v >= w && v <= w + duration[t] - 1)
           sizeFactor[t] * weeklyLoss[v] * startAt[t][w]
       + contractorCost * contractor;

subject to {
  // Exactly one start per turbine, early enough to finish by week 10.
  forall(t in Turbines)
    ctOneStart: sum(w in Weeks : w + duration[t] - 1 <= nbWeeks) startAt[t][w] == 1;
  forall(t in Turbines, w in Weeks : w + duration[t] - 1 > nbWeeks)
    ctTooLate: startAt[t][w] == 0;

  // Turbines down in week v: those that started in (v - duration, v].
  // Never more than the contractor-assisted limit ...
  forall(v in Weeks)
    ctCrewMax: sum(t in Turbines, w in Weeks : w <= v && w > v - duration[t]) startAt[t][w] <= crewsWithContractor;
  // ... and without the contractor only one at a time (logical implication).
  forall(v in Weeks)
    ctOwnCrew: contractor == 0 => sum(t in Turbines, w in Weeks : w <= v && w > v - duration[t]) startAt[t][w] <= 1;
}
