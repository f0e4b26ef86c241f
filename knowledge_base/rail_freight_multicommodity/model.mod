// Multicommodity flow: one flow per commodity, capacities shared on each arc.

{string} Stations = ...;
{string} Freight = ...;
tuple Section {
  string src;
  string dst;
  float cap;     // wagons per week, all freight together
  float cost;    // $ per wagon
}
{Section} Sections = ...;
// netSupply[k][s]: wagons of freight k that start (+) or end (-) at s.
float netSupply[Freight][Stations] = ...;

dvar float+ wagons[Freight][Sections];

minimize sum(k in Freight, a in Sections) a.cost * wagons[k][a];

subject to {
  // Flow conservation per commodity and station.
  forall(k in Freight, s in Stations)
    ctConserve: sum(a in Sections : a.src == s) wagons[k][a]
              - sum(a in Sections : a.dst == s) wagons[k][a] == netSupply[k][s];
  // Bundle constraint: all commodities share the section capacity.
  forall(a in Sections)
    ctShared: sum(k in Freight) wagons[k][a] <= a.cap;
}
