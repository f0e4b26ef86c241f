// A small rota: each of the days gets one nurse per shift, a nurse works at
// most one shift a day, and never the early shift right after a late one.
// Nurses state a cost for each shift; the rota with the least total cost wins.
using CP;

int nbNurses = ...;
int nbDays = ...;
range Nurses = 1..nbNurses;
range Days = 1..nbDays;
{string} Shifts = {"early", "late"};
int cost[Nurses][Shifts] = ...;

// who works each shift of each day
dvar int nurse[Days][Shifts] in Nurses;
// whether nurse n works shift s on day d
dvar boolean works[Nurses][Days][Shifts];

minimize sum(n in Nurses, d in Days, s in Shifts) cost[n][s] * works[n][d][s];

subject to {
  // the two shifts of a day go to different nurses
  forall(d in Days) allDifferent(all(s in Shifts) nurse[d][s]);
  // link the assignment to the boolean view (reification)
  forall(n in Nurses, d in Days, s in Shifts) works[n][d][s] == (nurse[d][s] == n);
  // no early shift right after a late one
  forall(n in Nurses, d in Days : d < nbDays)
    works[n][d]["late"] + works[n][d + 1]["early"] <= 1;
  // nobody works more than 3 shifts in all
  forall(n in Nurses) sum(d in Days, s in Shifts) works[n][d][s] <= 3;
  // nurse 1 is away on day 2
  forall(s in Shifts) nurse[2][s] != 1;
}
