// Cutting stock over a fixed list of cutting patterns: integer covering.

{string} Lengths = ...;                 // piece lengths ordered
{string} Ways = ...;                    // standard cutting patterns
int piecesOrdered[Lengths] = ...;       // pieces ordered per length
int pieces[Ways][Lengths] = ...;        // pieces per drum cut that way

// Drums cut each way: a whole number.
dvar int+ drums[Ways];

// Fewest drums opened.
minimize sum(w in Ways) drums[w];

subject to {
  // Covering: each length is produced at least as often as ordered
  // (surplus pieces go to stock, so >= rather than ==).
  forall(l in Lengths)
    ctOrder: sum(w in Ways) pieces[w][l] * drums[w] >= piecesOrdered[l];
}
