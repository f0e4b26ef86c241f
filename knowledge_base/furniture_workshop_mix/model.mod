// Weekly product mix for a furniture workshop (linear program).
// Decide how many chairs, coffee tables and bookshelves to build per week.

{string} Products = ...;              // Chair, Table, Bookshelf
{string} Resources = ...;             // carpentry hours, finishing hours, oak board-feet
float profit[Products] = ...;         // $ per unit built
float usage[Resources][Products] = ...;  // resource consumed by one unit
float available[Resources] = ...;     // weekly availability of each resource
float minChairShare = ...;            // chairs >= 40% of all units
float maxBookshelves = ...;           // market limit on bookshelves

// Weekly production rate of each product; fractional rates are allowed.
dvar float+ build[Products];

// Total weekly profit.
maximize sum(p in Products) profit[p] * build[p];

subject to {
  // Each resource's weekly use cannot exceed what is available.
  forall(r in Resources)
    ctResource: sum(p in Products) usage[r][p] * build[p] <= available[r];

  // Ratio rule written linearly: chairs >= 0.40 * (all units),
  // never as a division by the total (which would be nonlinear).
  ctChairShare: build["Chair"] >= minChairShare * sum(p in Products) build[p];

  // The market absorbs at most 30 bookshelves a week.
  ctBookshelfMarket: build["Bookshelf"] <= maxBookshelves;
}
