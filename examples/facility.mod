// Facility location with logical rules: open warehouses (fixed cost) and serve customers.
// Logical constraints: a warehouse serves a customer only if it is open (=>), and
// at most one of the two coastal sites may open.
int nbSites = 4;
int nbCustomers = 5;
range Sites = 1..nbSites;
range Customers = 1..nbCustomers;
float fixedCost[Sites] = [500, 420, 610, 380];
float capacity[Sites] = [90, 70, 120, 60];
float demand[Customers] = [30, 25, 40, 20, 35];
float unitCost[Sites][Customers] = [[2, 3, 6, 5, 4],
                                    [4, 2, 3, 6, 5],
                                    [6, 5, 2, 3, 2],
                                    [3, 6, 5, 2, 4]];

dvar boolean open[Sites];
dvar float serve[Sites][Customers] in 0..100;

minimize sum(s in Sites) fixedCost[s] * open[s]
       + sum(s in Sites, c in Customers) unitCost[s][c] * serve[s][c];

subject to {
  forall(c in Customers)
    ctDemand: sum(s in Sites) serve[s][c] == demand[c];
  forall(s in Sites)
    ctCapacity: sum(c in Customers) serve[s][c] <= capacity[s];
  forall(s in Sites, c in Customers)
    ctOnlyIfOpen: open[s] == 0 => serve[s][c] == 0;
  ctCoast: !(open[1] == 1 && open[4] == 1);
}
