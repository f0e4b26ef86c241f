// Two-stage stochastic MILP: integer first-stage purchase linked to
// continuous recourse (rental, unserved traffic) in each scenario.

{string} Scenarios = ...;
float prob[Scenarios] = ...;
float peak[Scenarios] = ...;          // thousand requests/min
float serverCost = ...;               // $k per server
float serverCapacity = ...;           // thousand requests/min per server
int maxServers = ...;
float rentCost = ...;                 // $k per unit rented
float rentLimit = ...;
float unservedCost = ...;             // $k per unit not served

dvar int servers in 0..maxServers;                 // first stage (integer)
dvar float rented[Scenarios] in 0..rentLimit;      // recourse
dvar float+ unserved[Scenarios];                   // recourse

minimize serverCost * servers
       + sum(s in Scenarios) prob[s] * (rentCost * rented[s] + unservedCost * unserved[s]);

subject to {
  // Linking the integer purchase with continuous capacity: traffic is
  // served by own servers, rented capacity, or is left unserved.
  forall(s in Scenarios)
    ctServe: serverCapacity * servers + rented[s] + unserved[s] >= peak[s];
}
