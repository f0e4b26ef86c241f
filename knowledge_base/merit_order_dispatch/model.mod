// Convex piecewise-linear cost with one variable per price block. Because
// block prices increase within each plant, no binaries are needed: the LP
// fills cheap blocks first by itself.

{string} Plants = ...;
tuple Block {
  string plant;
  int step;
  float size;     // MW
  float price;    // $/MWh
}
{Block} Blocks = ...;
float plantLimit[Plants] = ...;   // network limit on each plant's total
float demand = ...;

dvar float+ use[Blocks];

minimize sum(b in Blocks) b.price * use[b];

subject to {
  forall(b in Blocks)
    ctBlockSize: use[b] <= b.size;
  forall(p in Plants)
    ctPlantLimit: sum(b in Blocks : b.plant == p) use[b] <= plantLimit[p];
  ctDemand: sum(b in Blocks) use[b] == demand;
}
