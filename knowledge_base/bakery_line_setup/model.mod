// Bakery line selection: integer trays plus a fixed set-up cost per line used.

{string} Lines = ...;
float trayProfit[Lines] = ...;     // $ per tray
float ovenMin[Lines] = ...;        // oven minutes per tray
float prepMin[Lines] = ...;        // preparation minutes per tray
int maxTrays[Lines] = ...;         // capacity of a line that runs
float setupCost[Lines] = ...;      // paid once if the line runs at all
float ovenCapacity = ...;          // 960 minutes
float prepCapacity = ...;          // 420 minutes

// Number of trays baked on each line (whole trays only).
dvar int trays[l in Lines] in 0..maxTrays[l];
// run[l] = 1 when line l is set up tomorrow.
dvar boolean run[Lines];

// Profit from trays minus the fixed set-up costs of the lines that run.
maximize sum(l in Lines) (trayProfit[l] * trays[l] - setupCost[l] * run[l]);

subject to {
  ctOven: sum(l in Lines) ovenMin[l] * trays[l] <= ovenCapacity;
  ctPrep: sum(l in Lines) prepMin[l] * trays[l] <= prepCapacity;

  // Fixed-charge link: trays only on a line that runs. The big-M is the
  // line's own tray limit, the tightest valid bound.
  forall(l in Lines)
    ctRunLink: trays[l] <= maxTrays[l] * run[l];
}
