// Timetabling: partition exams into sessions, pack the hall, and penalise
// pairs on the same day with a linearised product of binaries.

{string} Exams = ...;
int nbSessions = ...;
range Sessions = 1..nbSessions;
int nbDays = ...;
range Days = 1..nbDays;
int dayOf[Sessions] = ...;       // which day each session is on
int entries[Exams] = ...;
int seats = ...;
tuple Shared {
  string e1;
  string e2;
  int students;
}
{Shared} SharedPairs = ...;

dvar boolean sits[Exams][Sessions];       // exam e sits in session s
dvar boolean sameDay[SharedPairs];        // the two exams of a pair fall on one day

minimize sum(p in SharedPairs) p.students * sameDay[p];

subject to {
  // Partitioning: every exam gets exactly one session.
  forall(e in Exams)
    ctOneSession: sum(s in Sessions) sits[e][s] == 1;
  // Packing: the hall's seats per session.
  forall(s in Sessions)
    ctSeats: sum(e in Exams) entries[e] * sits[e][s] <= seats;
  // Conflicts: exams sharing students never in the same session.
  forall(p in SharedPairs, s in Sessions)
    ctClash: sits[p.e1][s] + sits[p.e2][s] <= 1;
  // AND-linearisation: sameDay >= onDay(e1, d) + onDay(e2, d) - 1.
  // Only the lower bound is needed because sameDay is minimised.
  forall(p in SharedPairs, d in Days)
    ctSameDay: sameDay[p] >= sum(s in Sessions : dayOf[s] == d) sits[p.e1][s]
                            + sum(s in Sessions : dayOf[s] == d) sits[p.e2][s] - 1;
}
