// Single-machine sequencing with disjunctive (either-before-or-after) constraints.

{string} Jobs = ...;
float pressHours[Jobs] = ...;
float due[Jobs] = ...;
float penalty[Jobs] = ...;    // $ per hour late

// Horizon / big-M: all jobs back to back never take longer than this.
float horizon = sum(j in Jobs) pressHours[j];

dvar float start[j in Jobs] in 0..horizon;
dvar float+ late[Jobs];                 // hours late (tardiness)
// first[i][j] = 1 if job i runs before job j (used for ord(i) < ord(j) only).
dvar boolean first[Jobs][Jobs];

minimize sum(j in Jobs) penalty[j] * late[j];

subject to {
  // Tardiness: late >= completion - due, and late >= 0 from float+.
  forall(j in Jobs)
    ctLate: late[j] >= start[j] + pressHours[j] - due[j];

  // Disjunctive pair: either i finishes before j starts, or j before i.
  // The big-M is the horizon: it is always enough to make the unused
  // side of the disjunction redundant, and no larger than needed.
  forall(i in Jobs, j in Jobs : ord(Jobs, i) < ord(Jobs, j)) {
    ctIBeforeJ: start[i] + pressHours[i] <= start[j] + horizon * (1 - first[i][j]);
    ctJBeforeI: start[j] + pressHours[j] <= start[i] + horizon * first[i][j];
  }
}
