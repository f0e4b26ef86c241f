// Unit commitment: on/off binaries, semi-continuous output, start-up logic.

{string} Units = ...;
int nbBlocks = ...;
range Blocks = 1..nbBlocks;
float demand[Blocks] = ...;         // MW
float minMW[Units] = ...;
float maxMW[Units] = ...;
float energyCost[Units] = ...;      // $ per MW per block
float noLoadCost[Units] = ...;      // $ per block while on
float startCost[Units] = ...;       // $ per start
int onNow[Units] = ...;             // state before block 1
float reserveFactor = ...;          // 1.10

dvar boolean on[Units][Blocks];
dvar boolean start[Units][Blocks];
dvar float+ output[Units][Blocks];

minimize sum(u in Units, b in Blocks)
  (energyCost[u] * output[u][b] + noLoadCost[u] * on[u][b] + startCost[u] * start[u][b]);

subject to {
  forall(b in Blocks) {
    ctDemand: sum(u in Units) output[u][b] == demand[b];
    // Spinning reserve counts only units that are on.
    ctReserve: sum(u in Units) maxMW[u] * on[u][b] >= reserveFactor * demand[b];
  }
  // Semi-continuous output: 0 when off, [min, max] when on.
  forall(u in Units, b in Blocks) {
    ctMinOutput: output[u][b] >= minMW[u] * on[u][b];
    ctMaxOutput: output[u][b] <= maxMW[u] * on[u][b];
  }
  // Start-up detection: start >= on(b) - on(b-1); the cost makes it tight.
  forall(u in Units)
    ctStartFirst: start[u][1] >= on[u][1] - onNow[u];
  forall(u in Units, b in Blocks : b > 1)
    ctStart: start[u][b] >= on[u][b] - on[u][b-1];
}
