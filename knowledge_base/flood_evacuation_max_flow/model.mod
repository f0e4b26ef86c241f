// Maximum flow from a source to two sinks with intake limits.

{string} Places = ...;
{string} Shelters = ...;
string source = ...;
tuple Road {
  string src;
  string dst;
  float cap;       // vehicles per hour
}
{Road} Roads = ...;
float intake[Shelters] = ...;

dvar float+ rate[Roads];
dvar float+ evacuated;     // vehicles per hour leaving the town

maximize evacuated;

subject to {
  forall(r in Roads)
    ctRoadCap: rate[r] <= r.cap;
  // The town's net outflow is the evacuation rate.
  ctSource: sum(r in Roads : r.src == source) rate[r] - sum(r in Roads : r.dst == source) rate[r] == evacuated;
  // Junctions: conservation (in = out).
  forall(p in Places : p != source && p not in Shelters)
    ctJunction: sum(r in Roads : r.dst == p) rate[r] == sum(r in Roads : r.src == p) rate[r];
  // Shelters absorb at most their intake.
  forall(s in Shelters)
    ctIntake: sum(r in Roads : r.dst == s) rate[r] <= intake[s];
}
