// Project crashing: precedence constraints with controllable durations (LP).

{string} Activities = ...;
float normalDays[Activities] = ...;
float shortestDays[Activities] = ...;
float costPerDay[Activities] = ...;   // $ per day saved
tuple Precedence {
  string before;
  string after;
}
{Precedence} Precedences = ...;
float deadline = ...;

dvar float+ start[Activities];
// Actual duration, between the crash limit and the normal duration.
dvar float days[a in Activities] in shortestDays[a]..normalDays[a];

// Cost of the days saved on every activity.
minimize sum(a in Activities) costPerDay[a] * (normalDays[a] - days[a]);

subject to {
  // Precedence: an activity starts after each predecessor ends.
  forall(p in Precedences)
    ctPrecedence: start[p.after] >= start[p.before] + days[p.before];
  // Every activity ends by the deadline.
  forall(a in Activities)
    ctDeadline: start[a] + days[a] <= deadline;
}
