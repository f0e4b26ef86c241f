// Makespan minimisation on unrelated parallel machines: a min-max objective
// written with an epigraph variable.

{string} Shots = ...;
{string} Machines = ...;
float minutes[Shots][Machines] = ...;

dvar boolean on[Shots][Machines];   // shot s is rendered on machine m
dvar float+ makespan;               // epigraph variable: >= every machine's load

minimize makespan;

subject to {
  // Each shot on exactly one machine.
  forall(s in Shots)
    ctAssign: sum(m in Machines) on[s][m] == 1;
  // Epigraph: the makespan bounds every machine's total render time, so
  // minimising it minimises the maximum load.
  forall(m in Machines)
    ctLoad: sum(s in Shots) minutes[s][m] * on[s][m] <= makespan;
}
