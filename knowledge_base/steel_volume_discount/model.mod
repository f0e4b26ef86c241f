// Piecewise-linear purchase cost with DEcreasing marginal prices (concave),
// modelled with one variable per price band and binaries that force the
// bands to be filled in order.

{string} Products = ...;
float price[Products] = ...;        // $ per unit sold
float steelPerUnit[Products] = ...; // kg per unit
float labourPerUnit[Products] = ...;// hours per unit
float maxSales[Products] = ...;
float labourHours = ...;
int nbBands = ...;
range Bands = 1..nbBands;
float bandSize[Bands] = ...;        // kg in each price band
float bandPrice[Bands] = ...;       // $ per kg within the band

dvar float make[p in Products] in 0..maxSales[p];
dvar float buy[b in Bands] in 0..bandSize[b];   // kg bought in band b
dvar boolean inBand[Bands];                     // 1 if band b is used

maximize sum(p in Products) price[p] * make[p] - sum(b in Bands) bandPrice[b] * buy[b];

subject to {
  // Steel bought covers the steel used.
  ctSteel: sum(p in Products) steelPerUnit[p] * make[p] <= sum(b in Bands) buy[b];
  ctLabour: sum(p in Products) labourPerUnit[p] * make[p] <= labourHours;

  // A band can only be used if it is switched on ...
  forall(b in Bands)
    ctBandOn: buy[b] <= bandSize[b] * inBand[b];
  // ... and a later (cheaper) band only after the earlier one is full.
  // Without these rows the LP would buy the cheap band first.
  forall(b in Bands : b < nbBands)
    ctBandOrder: buy[b] >= bandSize[b] * inBand[b+1];
}
