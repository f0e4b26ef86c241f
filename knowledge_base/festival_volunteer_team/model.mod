// Selection with logical constraints (=>, ||, &&, !) and cardinality rules.

{string} Volunteers = ...;
int rating[Volunteers] = ...;
{string} Leads = ...;
{string} FirstAiders = ...;
int minCrew = ...;
int maxCrew = ...;
int minFirstAid = ...;

dvar boolean pick[Volunteers];

maximize sum(v in Volunteers) rating[v] * pick[v];

subject to {
  // Crew size between 4 and 6 (at-least-k and at-most-k in one ranged row).
  ctSize: minCrew <= sum(v in Volunteers) pick[v] <= maxCrew;
  // Implication: Alex => Blair.
  ctLift: pick["Alex"] == 1 => pick["Blair"] == 1;
  // Not both: !(Casey && Drew).
  ctApart: !(pick["Casey"] == 1 && pick["Drew"] == 1);
  // Implication with a disjunction on the right.
  ctSound: pick["Emery"] == 1 => (pick["Finn"] == 1 || pick["Gray"] == 1);
  // Exactly one lead.
  ctOneLead: sum(v in Leads) pick[v] == 1;
  // At least k first-aiders.
  ctFirstAid: sum(v in FirstAiders) pick[v] >= minFirstAid;
}
