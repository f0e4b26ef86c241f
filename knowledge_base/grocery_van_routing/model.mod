// Capacitated vehicle routing, two-index formulation with MTZ load variables.
// Node 0 is the hub, 1..n are kiosks.

int n = ...;
range Kiosks = 1..n;
range Nodes = 0..n;
int vans = ...;
float vanCapacity = ...;
float crates[Kiosks] = ...;
float minutes[Nodes][Nodes] = ...;

dvar boolean travel[Nodes][Nodes];          // a van drives i -> j
// load[i]: crates delivered on the route up to and including kiosk i.
dvar float load[i in Kiosks] in crates[i]..vanCapacity;

minimize sum(i in Nodes, j in Nodes : i != j) minutes[i][j] * travel[i][j];

subject to {
  forall(i in Nodes)
    ctNoSelfLoop: travel[i][i] == 0;
  // Every kiosk is entered and left exactly once.
  forall(k in Kiosks)
    ctEnter: sum(i in Nodes : i != k) travel[i][k] == 1;
  forall(k in Kiosks)
    ctLeave: sum(j in Nodes : j != k) travel[k][j] == 1;
  // At most three vans leave the hub, and as many return as leave.
  ctFleet: sum(k in Kiosks) travel[0][k] <= vans;
  ctReturn: sum(k in Kiosks) travel[k][0] == sum(k in Kiosks) travel[0][k];
  // MTZ with loads: if a van goes i -> j, the load grows by j's crates.
  // Big-M = vanCapacity deactivates the row when travel[i][j] = 0; the
  // load bounds (crates..capacity) enforce the van capacity and kill
  // subtours that avoid the hub.
  forall(i in Kiosks, j in Kiosks : i != j)
    ctLoad: load[j] >= load[i] + crates[j] - vanCapacity * (1 - travel[i][j]);
}
