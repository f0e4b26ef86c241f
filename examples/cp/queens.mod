// n queens on an n x n board, none attacking another: one queen per row,
// queen[r] is its column. Rows differ by construction; columns and both
// diagonals differ through allDifferent. Solved by CP-SAT (`using CP;`).
using CP;

int n = ...;
range Rows = 1..n;

dvar int queen[Rows] in 1..n;

subject to {
  columns:   allDifferent(queen);
  diagonal1: allDifferent(all(r in Rows) queen[r] + r);
  diagonal2: allDifferent(all(r in Rows) queen[r] - r);
}
