// Splitting an advertising budget (linear program): amounts of money on each channel, under a
// budget, a share cap, a contract minimum and an "at least as much as" rule; maximise reach.

{string} Channels = ...;              // Radio, Newspaper, Social
float reachPerDollar[Channels] = ...; // people reached per dollar spent
float budget = ...;                   // dollars available
float maxSocialShare = ...;           // social media: at most this share of the budget
float minNewspaper = ...;             // dollars promised to the newspaper

// Dollars spent on each channel (continuous: split to the cent).
dvar float+ spend[Channels];

// People reached.
maximize sum(c in Channels) reachPerDollar[c] * spend[c];

subject to {
  ctBudget: sum(c in Channels) spend[c] <= budget;

  // "Not more than half of the budget": a share of the fixed budget, so a constant right side.
  ctSocialCap: spend["Social"] <= maxSocialShare * budget;

  ctContract: spend["Newspaper"] >= minNewspaper;

  // "At least as much on radio as on the newspaper": a comparison of two variables.
  ctRadioFirst: spend["Radio"] >= spend["Newspaper"];
}
