// Semi-continuous investments (0 or [min, max]) with a cardinality limit,
// linked through one binary per fund.

{string} Funds = ...;
float expReturn[Funds] = ...;   // fraction per year
float risk[Funds] = ...;
int isBond[Funds] = ...;
float minTicket[Funds] = ...;   // $k
float maxTicket = ...;          // $k
float capital = ...;            // $k
float maxAvgRisk = ...;
float minBondShare = ...;
int maxFunds = ...;

dvar float+ amount[Funds];      // $k invested
dvar boolean used[Funds];       // fund receives money

maximize sum(f in Funds) expReturn[f] * amount[f];

subject to {
  ctAllInvested: sum(f in Funds) amount[f] == capital;
  // Semi-continuous: amount = 0 when unused, within [min, max] when used.
  forall(f in Funds) {
    ctMinTicket: amount[f] >= minTicket[f] * used[f];
    ctMaxTicket: amount[f] <= maxTicket * used[f];
  }
  // Cardinality: at most five funds.
  ctFewFunds: sum(f in Funds) used[f] <= maxFunds;
  // Average risk <= 5, linear form: sum(risk * amount) <= 5 * capital.
  ctRisk: sum(f in Funds) risk[f] * amount[f] <= maxAvgRisk * capital;
  // Bond share >= 20%.
  ctBonds: sum(f in Funds : isBond[f] == 1) amount[f] >= minBondShare * capital;
}
