// Bin packing: assign every crate to one lorry, minimise lorries used.

int nbCrates = ...;
int nbLorries = ...;
range Crates = 1..nbCrates;
range Lorries = 1..nbLorries;
float weight[Crates] = ...;
float payload = ...;

dvar boolean load[Crates][Lorries];   // crate c travels on lorry l
dvar boolean used[Lorries];           // lorry l is hired

minimize sum(l in Lorries) used[l];

subject to {
  // Partitioning: each crate on exactly one lorry.
  forall(c in Crates)
    ctOneLorry: sum(l in Lorries) load[c][l] == 1;
  // Packing: payload of a hired lorry; an unhired lorry carries nothing.
  forall(l in Lorries)
    ctPayload: sum(c in Crates) weight[c] * load[c][l] <= payload * used[l];
  // Symmetry breaking: lorries are identical, so hire them in order
  // (lorry l only if lorry l-1). This prunes equivalent solutions.
  forall(l in Lorries : l > 1)
    ctInOrder: used[l] <= used[l-1];
}
