// Fixed-charge network design: flow conservation + capacity only on built links.

{string} Nodes = ...;
tuple Link {
  string src;
  string dst;
  float lightCost;   // $k one-off
  float cap;         // Gbps
  float unitCost;    // $k per Gbps
}
{Link} Links = ...;
float netSupply[Nodes] = ...;   // +total at the core, -demand at towns

dvar boolean lit[Links];
dvar float+ traffic[Links];

minimize sum(l in Links) (l.lightCost * lit[l] + l.unitCost * traffic[l]);

subject to {
  // Flow conservation at every node.
  forall(n in Nodes)
    ctFlow: sum(l in Links : l.src == n) traffic[l] - sum(l in Links : l.dst == n) traffic[l] == netSupply[n];
  // Fixed charge: a link carries traffic only if lit; its capacity is the big-M.
  forall(l in Links)
    ctLit: traffic[l] <= l.cap * lit[l];
}
