// Weekly staffing: choose how many nurses start a 5-day shift on each day so that
// every day is covered, at least cost. Weekend starts cost more. Integer decisions.
{string} Days = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
int need[Days] = [17, 13, 15, 19, 14, 16, 11];      // nurses needed on each day
float wage[d in Days] = (d == "Sat" || d == "Sun") ? 1.2 : 1.0;

dvar int+ start[Days];   // nurses starting their 5 consecutive days on day d

minimize sum(d in Days) wage[d] * start[d];

subject to {
  // A nurse starting on day s works on d if d is one of the 5 days from s (wrapping around the week).
  forall(d in Days)
    ctCover: sum(s in Days : (ord(Days, d) - ord(Days, s) + 7) mod 7 <= 4) start[s] >= need[d];
}
