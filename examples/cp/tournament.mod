// A single round robin: every team meets every other team once, one game per team and
// round. Each game is played at one of its two teams' grounds; a team that plays at
// home (or away) twice in a row has a "break". Find a schedule with the fewest breaks
// (with an even number n of teams, at least n - 2 are needed), where each team plays
// at least n/2 - 1 games at home.
using CP;

int n = ...;                      // teams (even)
range Teams = 1..n;
range Rounds = 1..n - 1;
range Later = 2..n - 1;            // the rounds after the first

// the opponent of each team in each round
dvar int opp[Teams][Rounds] in Teams;
// 1 when the team plays at home in that round
dvar int home[Teams][Rounds] in 0..1;
// 1 when the team's round r is at the same ground kind as round r - 1
dvar int brk[Teams][Later] in 0..1;

minimize sum(t in Teams, r in Later) brk[t][r];

subject to {
  forall(t in Teams) {
    // nobody plays itself, and each opponent comes once
    forall(r in Rounds) opp[t][r] != t;
    allDifferent(all(r in Rounds) opp[t][r]);
    // enough home games for everybody
    count(all(r in Rounds) home[t][r], 1) >= n div 2 - 1;
  }
  forall(r in Rounds) {
    forall(t in Teams) {
      // if t meets u, u meets t (arrays indexed by a decision: CP's element)
      opp[opp[t][r]][r] == t;
      // of the two teams of a game, exactly one is at home
      home[t][r] + home[opp[t][r]][r] == 1;
    }
  }
  // a break is two home games or two away games in a row
  forall(t in Teams, r in Later) brk[t][r] >= (home[t][r] == home[t][r - 1]);
  // the rounds can be renumbered at will: team 1 meets team r + 1 in round r
  forall(r in Rounds) opp[1][r] == r + 1;
}

execute {
  for (var t in Teams) {
    var line = "team " + t + ":";
    for (var r in Rounds) line = line + " " + (home[t][r] == 1 ? "" : "@") + opp[t][r];
    writeln(line);
  }
}
