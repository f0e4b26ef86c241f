// Shift scheduling as integer covering, with a ratio rule on the shift mix.

int nbBlocks = ...;
range Blocks = 1..nbBlocks;
int required[Blocks] = ...;   // technicians needed per 2-hour block
int fullLen = ...;            // blocks per full-time shift (4)
int partLen = ...;            // blocks per part-time shift (2)
float fullCost = ...;
float partCost = ...;
int partDivisor = ...;        // part-timers <= 1/partDivisor of all shifts (3)

dvar int+ fullStart[Blocks];  // full-time shifts starting in block b
dvar int+ partStart[Blocks];  // part-time shifts starting in block b

minimize sum(b in Blocks) (fullCost * fullStart[b] + partCost * partStart[b]);

subject to {
  // Shifts must end by midnight.
  forall(b in Blocks : b + fullLen - 1 > nbBlocks)
    ctFullFits: fullStart[b] == 0;
  forall(b in Blocks : b + partLen - 1 > nbBlocks)
    ctPartFits: partStart[b] == 0;

  // Covering: a shift that started in one of the last `len` blocks is on duty.
  forall(b in Blocks)
    ctCover: sum(s in Blocks : s <= b && s > b - fullLen) fullStart[s]
           + sum(s in Blocks : s <= b && s > b - partLen) partStart[s] >= required[b];

  // Ratio rule, linear form: part <= (full + part) / 3 is written as
  // 3 * part <= full + part, with no division and no rounded 0.333.
  ctPartShare: partDivisor * sum(b in Blocks) partStart[b]
             <= sum(b in Blocks) (fullStart[b] + partStart[b]);
}
