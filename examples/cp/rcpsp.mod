// Resource-constrained project scheduling: tasks with durations, each using
// some units of shared renewable resources while it runs, and precedences
// between tasks. Minimise the project's end. A cumulative function per
// resource sums the pulses of the tasks using it; it may not pass the capacity.
using CP;

int nbTasks = ...;
int nbResources = ...;
range Tasks = 1..nbTasks;
range Resources = 1..nbResources;

int capacity[Resources] = ...;
int duration[Tasks] = ...;
int demand[Tasks][Resources] = ...;
tuple Precedence { int before; int after; }
{Precedence} precedences = ...;

int horizon = sum(t in Tasks) duration[t];

dvar interval task[t in Tasks] in 0..horizon size duration[t];

cumulFunction usage[r in Resources] =
  sum(t in Tasks : demand[t][r] > 0) pulse(task[t], demand[t][r]);

minimize max(t in Tasks) endOf(task[t]);
subject to {
  forall(r in Resources)
    capacityOk: usage[r] <= capacity[r];
  forall(p in precedences)
    order: endBeforeStart(task[p.before], task[p.after]);
}

execute {
  for (var t in Tasks) writeln("task ", t, " ", task[t]);
}
