// Job shop: each job is a chain of operations, each on one machine for a
// fixed time; a machine runs one operation at a time. Minimise the makespan.
// An interval variable per operation; the operations of a machine form a
// sequence that may not overlap; the operations of a job follow each other.
using CP;

int nbJobs = ...;
int nbMachines = ...;
range Jobs = 0..nbJobs-1;
range Steps = 0..nbMachines-1;
range Machines = 0..nbMachines-1;

int machineOf[Jobs][Steps] = ...;   // the machine of step s of job j
int duration[Jobs][Steps] = ...;    // its processing time

dvar interval op[j in Jobs][s in Steps] size duration[j][s];
dvar sequence onMachine[m in Machines] in
  all(j in Jobs, s in Steps : machineOf[j][s] == m) op[j][s];

minimize max(j in Jobs) endOf(op[j][nbMachines-1]);
subject to {
  forall(m in Machines)
    oneAtATime: noOverlap(onMachine[m]);
  forall(j in Jobs, s in Steps : s < nbMachines-1)
    chain: endBeforeStart(op[j][s], op[j][s+1]);
}
