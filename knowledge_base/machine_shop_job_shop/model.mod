// Job shop: route precedence + machine disjunctions + min makespan.

int nbOrders = ...;
int nbMachines = ...;
range Orders = 1..nbOrders;
range Machines = 1..nbMachines;
range Steps = 1..nbMachines;
int route[Orders][Steps] = ...;      // machine used at each step of an order's route
float hours[Orders][Machines] = ...; // processing time of an order on a machine

float bigM = sum(o in Orders, m in Machines) hours[o][m];   // serial schedule length

dvar float start[Orders][Machines] in 0..bigM;
dvar boolean before[Machines][Orders][Orders];  // on m, order i precedes order j (i < j)
dvar float+ makespan;

minimize makespan;

subject to {
  // Route precedence: step s+1 starts after step s ends.
  forall(o in Orders, s in Steps : s < nbMachines)
    ctRoute: start[o][route[o][s+1]] >= start[o][route[o][s]] + hours[o][route[o][s]];

  // Disjunction on every machine for every pair of orders.
  forall(m in Machines, i in Orders, j in Orders : i < j) {
    ctIFirst: start[i][m] + hours[i][m] <= start[j][m] + bigM * (1 - before[m][i][j]);
    ctJFirst: start[j][m] + hours[j][m] <= start[i][m] + bigM * before[m][i][j];
  }

  // Min-max: makespan after the last operation of every order.
  forall(o in Orders)
    ctMakespan: makespan >= start[o][route[o][nbMachines]] + hours[o][route[o][nbMachines]];
}
