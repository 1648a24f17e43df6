"""Reference values for data-moments.test.ts, computed independently with statsmodels and numpy
(Debian's python3-statsmodels 0.13, numpy 1.24) on a real quarterly series: the US macro data
1959Q1-2009Q3 (test/fixtures/data-sources/samples/datasets/us_macro_quarterly_1959q1_2009q3.csv,
statsmodels' own `macrodata`; see SOURCES.md of the shared data).

Run once: /usr/bin/python3 server/engines/models/testdata/data_moments_reference.py \
  > server/engines/models/testdata/data_moments_reference.json
The JSON is committed, so the tests need no Python.
"""
import json
import os

import numpy as np
import pandas as pd
from statsmodels.tsa.filters.hp_filter import hpfilter
from statsmodels.tsa.stattools import acf

DATA = os.path.join(
    os.path.dirname(__file__),
    "../../../../test/fixtures/data-sources/samples/datasets/us_macro_quarterly_1959q1_2009q3.csv",
)
macro = pd.read_csv(DATA, float_precision="round_trip")
columns = ["realgdp", "realcons", "realinv", "unemp"]

out = {"rows": int(len(macro)), "columns": {}}
cycles = {}
for lam in (1600, 100):
    for c in ["realgdp", "realcons", "realinv"]:
        cycle, trend = hpfilter(np.log(macro[c].to_numpy()), lamb=lam)
        cycles[(c, lam)] = np.asarray(cycle)
for c in columns:
    x = macro[c].to_numpy(dtype=float)
    entry = {}
    if c != "unemp":
        hp = cycles[(c, 1600)]
        dl = np.diff(np.log(x))
        entry["hp1600"] = hp.tolist()
        entry["hp100"] = cycles[(c, 100)].tolist()
        entry["logdiff"] = dl.tolist()
        entry["hp1600_std"] = float(np.std(hp))  # ddof=0
        entry["hp1600_acf1"] = float(acf(hp, nlags=1, fft=False)[1])
        entry["logdiff_std"] = float(np.std(dl))
        entry["logdiff_mean"] = float(np.mean(dl))
        entry["logdiff_acf1"] = float(acf(dl, nlags=1, fft=False)[1])
    else:
        entry["level_std"] = float(np.std(x))
        entry["level_mean"] = float(np.mean(x))
        entry["level_acf1"] = float(acf(x, nlags=1, fft=False)[1])
    out["columns"][c] = entry

gdp = cycles[("realgdp", 1600)]
out["cross"] = {}
for c in ["realcons", "realinv"]:
    hp = cycles[(c, 1600)]
    out["cross"][c] = {
        "hp1600_relstd_gdp": float(np.std(hp) / np.std(gdp)),
        "hp1600_corr_gdp": float(np.corrcoef(hp, gdp)[0, 1]),
    }
print(json.dumps(out, indent=1))
