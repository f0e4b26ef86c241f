"""Ten small problems written for the semantic checks (not taken from any benchmark), each with a
correct model and five scripted wrong-but-compiling versions of the kinds LLMs produce:

- ``swap``: two coefficients exchanged;
- ``missing``: a constraint left out;
- ``sense``: the objective's sense reversed;
- ``unit``: one number in another unit (minutes for hours, tonnes for kilograms, cents for dollars);
- ``direction``: a limit written the wrong way round (``>=`` for ``<=`` or the reverse).

Each mutation is ``(kind, "model" | "data", old text, new text)``, applied once.
"""
from __future__ import annotations

CASES = [
    {"name": "furniture",
     "problem": "A furniture shop makes desks and shelves. A desk earns a profit of $45 and a shelf earns $30. A desk "
                "needs 4 hours of carpentry and a shelf needs 2 hours; at most 120 carpentry hours are available each "
                "week. The paint shop can handle at most 50 items a week. At least 10 desks must be made for a "
                "standing order. Maximise the weekly profit.",
     "model": '{string} Items = ...;\nfloat profit[Items] = ...;\nfloat hours[Items] = ...;\nfloat carpentryHours = ...;\n'
              'float paintCap = ...;\nfloat minDesks = ...;\ndvar float+ make[Items];\n'
              'maximize sum(i in Items) profit[i] * make[i];\nsubject to {\n'
              '  carpentry: sum(i in Items) hours[i] * make[i] <= carpentryHours;\n'
              '  paint: sum(i in Items) make[i] <= paintCap;\n  order: make["desk"] >= minDesks;\n}\n',
     "data": 'Items = {"desk", "shelf"};\nprofit = [45, 30];\nhours = [4, 2];\ncarpentryHours = 120;\npaintCap = 50;\n'
             'minDesks = 10;\n',
     "mutants": [("swap", "data", "profit = [45, 30]", "profit = [30, 45]"),
                 ("missing", "model", "  paint: sum(i in Items) make[i] <= paintCap;\n", ""),
                 ("sense", "model", "maximize", "minimize"),
                 ("unit", "data", "carpentryHours = 120", "carpentryHours = 7200"),
                 ("direction", "model", "make[i] <= paintCap", "make[i] >= paintCap")]},
    {"name": "feed",
     "problem": "A farmer mixes two feeds, corn and soy, for his cattle. Corn costs $0.30 per kg and soy costs $0.90 "
                "per kg. Each kg of corn gives 0.09 kg of protein and each kg of soy gives 0.60 kg. The daily mix must "
                "contain at least 30 kg of protein, and the barn can store at most 800 kg of feed a day. Minimise the "
                "daily feed cost.",
     "model": "dvar float+ corn;\ndvar float+ soy;\nminimize 0.3 * corn + 0.9 * soy;\nsubject to {\n"
              "  protein: 0.09 * corn + 0.6 * soy >= 30;\n  storage: corn + soy <= 800;\n}\n",
     "data": "",
     "mutants": [("swap", "model", "0.3 * corn + 0.9 * soy", "0.9 * corn + 0.3 * soy"),
                 ("missing", "model", "  protein: 0.09 * corn + 0.6 * soy >= 30;\n", ""),
                 ("sense", "model", "minimize", "maximize"),
                 ("unit", "model", "soy >= 30", "soy >= 30000"),
                 ("direction", "model", "corn + soy <= 800", "corn + soy >= 800")]},
    {"name": "bakery",
     "problem": "A bakery ships bread from two ovens, North and South, to two shops, Market and Station. North can "
                "bake at most 300 loaves a day and South at most 200. Market needs at least 220 loaves and Station "
                "needs at least 180. Shipping a loaf costs $2 from North to Market, $5 from North to Station, $4 from "
                "South to Market and $1 from South to Station. Minimise the total shipping cost.",
     "model": "{string} Ovens = ...;\n{string} Shops = ...;\nfloat cap[Ovens] = ...;\nfloat need[Shops] = ...;\n"
              "float cost[Ovens][Shops] = ...;\ndvar float+ ship[Ovens][Shops];\n"
              "minimize sum(o in Ovens, s in Shops) cost[o][s] * ship[o][s];\nsubject to {\n"
              "  forall(o in Ovens) supply: sum(s in Shops) ship[o][s] <= cap[o];\n"
              "  forall(s in Shops) demand: sum(o in Ovens) ship[o][s] >= need[s];\n}\n",
     "data": 'Ovens = {"North", "South"};\nShops = {"Market", "Station"};\ncap = [300, 200];\nneed = [220, 180];\n'
             "cost = [[2, 5], [4, 1]];\n",
     "mutants": [("swap", "data", "cap = [300, 200]", "cap = [200, 300]"),
                 ("missing", "model", "  forall(s in Shops) demand: sum(o in Ovens) ship[o][s] >= need[s];\n", ""),
                 ("sense", "model", "minimize", "maximize"),
                 ("unit", "data", "cap = [300, 200]", "cap = [0.3, 200]"),
                 ("direction", "model", "ship[o][s] <= cap[o]", "ship[o][s] >= cap[o]")]},
    {"name": "staffing",
     "problem": "A call centre hires day agents and night agents. A day agent is paid $160 a shift and a night agent "
                "$200. Day agents answer 60 calls a shift and night agents answer 45. The centre must answer at least "
                "2,700 calls, and at least 12 night agents are required for safety rules. The office has room for at "
                "most 50 agents in total. Minimise the wage bill.",
     "model": "dvar int+ dayAgents;\ndvar int+ nightAgents;\n"
              "minimize 160 * dayAgents + 200 * nightAgents;\nsubject to {\n"
              "  calls: 60 * dayAgents + 45 * nightAgents >= 2700;\n  night: nightAgents >= 12;\n"
              "  room: dayAgents + nightAgents <= 50;\n}\n",
     "data": "",
     "mutants": [("swap", "model", "60 * dayAgents + 45 * nightAgents", "45 * dayAgents + 60 * nightAgents"),
                 ("missing", "model", "  night: nightAgents >= 12;\n", ""),
                 ("sense", "model", "minimize", "maximize"),
                 ("unit", "model", "160 * dayAgents", "1.6 * dayAgents"),
                 ("direction", "model", "nightAgents >= 12", "nightAgents <= 12")]},
    {"name": "blending",
     "problem": "A refinery blends two crudes, Light and Heavy, into at most 1,000 barrels of fuel. Light crude costs "
                "$70 per barrel and contains 0.5% sulphur; Heavy crude costs $50 per barrel and contains 2.5% sulphur. "
                "The fuel sells for $85 per barrel and may contain at most 1.5% sulphur on average. Maximise the "
                "profit of the blend.",
     "model": '{string} Crudes = ...;\nfloat price[Crudes] = ...;\nfloat sulphur[Crudes] = ...;\nfloat sellPrice = ...;\n'
              "float maxBarrels = ...;\nfloat maxSulphur = ...;\ndvar float+ use[Crudes];\n"
              "maximize sum(c in Crudes) (sellPrice - price[c]) * use[c];\nsubject to {\n"
              "  volume: sum(c in Crudes) use[c] <= maxBarrels;\n"
              "  quality: sum(c in Crudes) sulphur[c] * use[c] <= maxSulphur * sum(c in Crudes) use[c];\n}\n",
     "data": 'Crudes = {"Light", "Heavy"};\nprice = [70, 50];\nsulphur = [0.005, 0.025];\nsellPrice = 85;\n'
             "maxBarrels = 1000;\nmaxSulphur = 0.015;\n",
     "mutants": [("swap", "data", "price = [70, 50]", "price = [50, 70]"),
                 ("missing", "model", "  quality: sum(c in Crudes) sulphur[c] * use[c] <= maxSulphur * "
                                      "sum(c in Crudes) use[c];\n", ""),
                 ("sense", "model", "maximize", "minimize"),
                 ("unit", "data", "maxSulphur = 0.015", "maxSulphur = 15"),
                 ("direction", "model", "use[c] <= maxSulphur", "use[c] >= maxSulphur")]},
    {"name": "advertising",
     "problem": "A shop splits an advertising budget of at most $12,000 between radio and newspaper. A radio spot "
                "costs $400 and reaches 3,000 people; a newspaper ad costs $600 and reaches 5,000 people. At most 20 "
                "radio spots can be booked, and the shop wants at least 5 newspaper ads. Maximise the number of "
                "people reached.",
     "model": "dvar int+ radio;\ndvar int+ paper;\nmaximize 3000 * radio + 5000 * paper;\nsubject to {\n"
              "  budget: 400 * radio + 600 * paper <= 12000;\n  spots: radio <= 20;\n  ads: paper >= 5;\n}\n",
     "data": "",
     "mutants": [("swap", "model", "3000 * radio + 5000 * paper", "5000 * radio + 3000 * paper"),
                 ("missing", "model", "  spots: radio <= 20;\n", ""),
                 ("sense", "model", "maximize", "minimize"),
                 ("unit", "model", "<= 12000", "<= 12"),
                 ("direction", "model", "paper >= 5", "paper <= 5")]},
    {"name": "orchard",
     "problem": "A grower has at most 60 hectares to plant with apples and pears. Apples earn $900 per hectare and "
                "pears $700 per hectare. Apples need 30 hours of labour per hectare and pears need 20; at most 1,500 "
                "hours of labour are available. The grower has water for at most 50 hectares of apples. Maximise "
                "the grower's earnings.",
     "model": '{string} Fruits = ...;\nfloat earn[Fruits] = ...;\nfloat labour[Fruits] = ...;\nfloat land = ...;\n'
              'float hoursAvail = ...;\nfloat appleWater = ...;\ndvar float+ area[Fruits];\n'
              "maximize sum(f in Fruits) earn[f] * area[f];\nsubject to {\n"
              "  ctLand: sum(f in Fruits) area[f] <= land;\n"
              "  ctLabour: sum(f in Fruits) labour[f] * area[f] <= hoursAvail;\n"
              '  ctWater: area["apples"] <= appleWater;\n}\n',
     "data": 'Fruits = {"apples", "pears"};\nearn = [900, 700];\nlabour = [30, 20];\nland = 60;\nhoursAvail = 1500;\n'
             "appleWater = 50;\n",
     "mutants": [("swap", "data", "labour = [30, 20]", "labour = [20, 30]"),
                 ("missing", "model", "  ctLabour: sum(f in Fruits) labour[f] * area[f] <= hoursAvail;\n", ""),
                 ("sense", "model", "maximize", "minimize"),
                 ("unit", "data", "hoursAvail = 1500", "hoursAvail = 90000"),
                 ("direction", "model", "area[f] <= land", "area[f] >= land")]},
    {"name": "cargo",
     "problem": "A barge carries sacks of rice and sacks of beans. A sack of rice weighs 50 kg and earns $8; a sack "
                "of beans weighs 40 kg and earns $7. The barge takes at most 20,000 kg, and the deck has room for at "
                "most 450 sacks. The buyer needs at least 100 sacks of beans. Maximise the earnings of the trip.",
     "model": "dvar int+ rice;\ndvar int+ beans;\nmaximize 8 * rice + 7 * beans;\nsubject to {\n"
              "  weight: 50 * rice + 40 * beans <= 20000;\n  deck: rice + beans <= 450;\n  buyer: beans >= 100;\n}\n",
     "data": "",
     "mutants": [("swap", "model", "8 * rice + 7 * beans", "7 * rice + 8 * beans"),
                 ("missing", "model", "  deck: rice + beans <= 450;\n", ""),
                 ("sense", "model", "maximize", "minimize"),
                 ("unit", "model", "<= 20000", "<= 20"),
                 ("direction", "model", "beans >= 100", "beans <= 100")]},
    {"name": "power",
     "problem": "A town buys power from a coal plant and a wind farm. Coal power costs $40 per MWh and wind power "
                "costs $25 per MWh. The town needs at least 900 MWh tomorrow. The wind farm can deliver at most "
                "400 MWh and the coal plant at most 800 MWh. Minimise the cost of tomorrow's power.",
     "model": '{string} Sources = ...;\nfloat price[Sources] = ...;\nfloat maxOut[Sources] = ...;\nfloat need = ...;\n'
              "dvar float+ buy[Sources];\nminimize sum(s in Sources) price[s] * buy[s];\nsubject to {\n"
              "  demand: sum(s in Sources) buy[s] >= need;\n  forall(s in Sources) limit: buy[s] <= maxOut[s];\n}\n",
     "data": 'Sources = {"coal", "wind"};\nprice = [40, 25];\nmaxOut = [800, 400];\nneed = 900;\n',
     "mutants": [("swap", "data", "maxOut = [800, 400]", "maxOut = [400, 800]"),
                 ("missing", "model", "  forall(s in Sources) limit: buy[s] <= maxOut[s];\n", ""),
                 ("sense", "model", "minimize", "maximize"),
                 ("unit", "data", "need = 900", "need = 0.9"),
                 ("direction", "model", "buy[s] >= need", "buy[s] <= need")]},
    {"name": "printing",
     "problem": "A print shop prints posters and flyers. A poster takes 6 minutes of press time and earns $4; a "
                "flyer takes 1 minute and earns $0.50. The press runs at most 8 hours a day, that is 480 minutes. "
                "At most 60 posters fit in the drying rack, and a client ordered at least 100 flyers. Maximise the "
                "day's earnings.",
     "model": "dvar int+ posters;\ndvar int+ flyers;\nmaximize 4 * posters + 0.5 * flyers;\nsubject to {\n"
              "  press: 6 * posters + flyers <= 480;\n  rack: posters <= 60;\n  order: flyers >= 100;\n}\n",
     "data": "",
     "mutants": [("swap", "model", "4 * posters + 0.5 * flyers", "0.5 * posters + 4 * flyers"),
                 ("missing", "model", "  rack: posters <= 60;\n", ""),
                 ("sense", "model", "maximize", "minimize"),
                 ("unit", "model", "<= 480", "<= 8"),
                 ("direction", "model", "flyers >= 100", "flyers <= 100")]},
]


def mutants():
    """Every ``(case, kind, model, data)`` of :data:`CASES`."""
    for c in CASES:
        for kind, where, old, new in c["mutants"]:
            text = c[where]
            assert text.count(old) == 1, (c["name"], kind, old)
            changed = text.replace(old, new)
            yield c, kind, (changed if where == "model" else c["model"]), (changed if where == "data" else c["data"])
