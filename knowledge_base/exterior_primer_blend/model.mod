// Blending: choose litres of each base stock so the mix meets quality bounds.

{string} Stocks = ...;
{string} Components = ...;                 // Pigment, Solvent, Binder
float cost[Stocks] = ...;                  // $ per litre
float content[Stocks][Components] = ...;   // percent by volume
float onHand[Stocks] = ...;                // litres available
float batch = ...;                         // litres to produce
float minPct[Components] = ...;            // lower spec (0 if none)
float maxPct[Components] = ...;            // upper spec (100 if none)

// Litres of each stock put into the batch, bounded by stock on hand.
dvar float use[s in Stocks] in 0..onHand[s];

minimize sum(s in Stocks) cost[s] * use[s];

subject to {
  // The batch is exactly 1000 litres.
  ctVolume: sum(s in Stocks) use[s] == batch;

  // Quality as linear ratio constraints: component litres within
  // [minPct, maxPct] percent of the batch volume.
  forall(c in Components)
    ctQuality: minPct[c] * batch <= sum(s in Stocks) content[s][c] * use[s] <= maxPct[c] * batch;
}
