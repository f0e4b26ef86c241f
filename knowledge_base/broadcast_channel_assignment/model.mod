// Channel assignment: |c_i - c_j| >= sep is an either-or pair of constraints
// (c_i above c_j, or below); the objective is a min-max over channels.

{string} Transmitters = ...;
int maxChannel = ...;
tuple Separation {
  string a;
  string b;
  int sep;
}
{Separation} Pairs = ...;

dvar int channel[Transmitters] in 1..maxChannel;
dvar boolean aAbove[Pairs];      // 1: channel[a] >= channel[b] + sep
dvar int+ highest;               // epigraph variable for the highest channel

minimize highest;

subject to {
  forall(t in Transmitters)
    ctHighest: highest >= channel[t];
  // Either-or with big-M = maxChannel: when the other branch is chosen the
  // row reads c_i - c_j >= sep - maxChannel, which always holds since
  // channels differ by at most maxChannel - 1.
  forall(p in Pairs) {
    ctAbove: channel[p.a] - channel[p.b] >= p.sep - maxChannel * (1 - aAbove[p]);
    ctBelow: channel[p.b] - channel[p.a] >= p.sep - maxChannel * aAbove[p];
  }
}
