// Either-or constraints: exactly one of two glazing limits must hold.
// A binary picks the arrangement; big-M relaxes the limit that is not chosen.

{string} Items = ...;
float profit[Items] = ...;
float kilnSlots[Items] = ...;
float kilnCapacity = ...;
int maxSales[Items] = ...;
float glazeHours[Items] = ...;     // in-house glazing hours per piece
float glazeCapacity = ...;         // 40 hours
float partnerCharge[Items] = ...;  // partner's charge per piece
float partnerBudget = ...;         // $260 contract

// Big-M values: the largest amount by which each limit could be exceeded
// when every item is at its sales cap. Smaller M = tighter relaxation.
float mInHouse = sum(i in Items) glazeHours[i] * maxSales[i] - glazeCapacity;
float mPartner = sum(i in Items) partnerCharge[i] * maxSales[i] - partnerBudget;

dvar int make[i in Items] in 0..maxSales[i];
dvar boolean usePartner;   // 1 = outsource glazing, 0 = glaze in-house

maximize sum(i in Items) profit[i] * make[i];

subject to {
  ctKiln: sum(i in Items) kilnSlots[i] * make[i] <= kilnCapacity;

  // In-house limit, switched off when usePartner = 1.
  ctInHouse: sum(i in Items) glazeHours[i] * make[i] <= glazeCapacity + mInHouse * usePartner;
  // Partner contract limit, switched off when usePartner = 0.
  ctPartner: sum(i in Items) partnerCharge[i] * make[i] <= partnerBudget + mPartner * (1 - usePartner);
}
