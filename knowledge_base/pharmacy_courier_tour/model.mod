// Travelling salesman tour with Miller-Tucker-Zemlin (MTZ) subtour elimination.
// Node 1 is the pharmacy; nodes 2..n are clinics.

int n = ...;
range Nodes = 1..n;
{string} Names = ...;               // for reading the data only
float minutes[Nodes][Nodes] = ...;

// drive[i][j] = 1 if the courier drives directly from i to j.
dvar boolean drive[Nodes][Nodes];
// order[i]: position of clinic i in the round (MTZ ordering variable).
dvar float order[Nodes] in 1..n-1;

minimize sum(i in Nodes, j in Nodes : i != j) minutes[i][j] * drive[i][j];

subject to {
  forall(i in Nodes)
    ctNoSelfLoop: drive[i][i] == 0;
  // Assignment part: leave and enter every location exactly once.
  forall(i in Nodes)
    ctLeave: sum(j in Nodes : j != i) drive[i][j] == 1;
  forall(j in Nodes)
    ctEnter: sum(i in Nodes : i != j) drive[i][j] == 1;
  // MTZ: if the courier goes i -> j between two clinics, j comes later in
  // the round. This forbids cycles that skip the pharmacy (node 1).
  forall(i in Nodes, j in Nodes : i != j && i > 1 && j > 1)
    ctMtz: order[i] - order[j] + (n - 1) * drive[i][j] <= n - 2;
}
