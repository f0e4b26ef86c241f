// Generalised assignment: each project to one consultant, with a knapsack
// (hours) constraint per consultant.

{string} Consultants = ...;
{string} Projects = ...;
float hours[Consultants][Projects] = ...;
float rate[Consultants] = ...;
float hoursFree[Consultants] = ...;

dvar boolean does[Consultants][Projects];

minimize sum(c in Consultants, p in Projects) rate[c] * hours[c][p] * does[c][p];

subject to {
  // Assignment: exactly one consultant per project.
  forall(p in Projects)
    ctOneConsultant: sum(c in Consultants) does[c][p] == 1;
  // Knapsack per consultant: the hours taken on fit in the hours free.
  forall(c in Consultants)
    ctHours: sum(p in Projects) hours[c][p] * does[c][p] <= hoursFree[c];
}
