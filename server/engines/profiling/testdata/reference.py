"""Reference values for profile.test.ts, computed independently with pandas, numpy and
statsmodels (Debian's python3-pandas 1.5, numpy 1.24, statsmodels 0.13).

Run: /usr/bin/python3 server/engines/profiling/testdata/reference.py > server/engines/profiling/testdata/reference.json
The JSON is committed, so the tests need no Python.
"""
import json
import math
import os
import sys

import numpy as np
import pandas as pd
from statsmodels.tsa.stattools import acf

DATA = os.path.join(os.path.dirname(__file__), "../../../../test/fixtures/data-sources/samples/datasets/")


def clean(v):
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (np.floating, float)):
        return None if math.isnan(v) or math.isinf(v) else float(v)
    return v


def numeric_column(s: pd.Series):
    x = s.dropna().astype(float)
    n_unique = int(x.nunique())
    out = {
        "count": int(x.count()),
        "missing": int(s.isna().sum()),
        "distinct": n_unique,
        "unique": int((x.value_counts() == 1).sum()),
        "mean": clean(x.mean()),
        "sd": clean(x.std()),
        "variance": clean(x.var()),
        "sum": clean(x.sum()),
        "min": clean(x.min()),
        "max": clean(x.max()),
        "quantiles": [clean(q) for q in x.quantile([0.05, 0.25, 0.5, 0.75, 0.95])],
        "skewness": clean(x.skew()),
        "kurtosis": clean(x.kurt()),
        "zeros": int((x == 0).sum()),
        "negatives": int((x < 0).sum()),
        "zScoreOutliers": int(((x - x.mean()).abs() > 3 * x.std()).sum()),
    }
    q1, q3 = x.quantile(0.25), x.quantile(0.75)
    iqr = q3 - q1
    out["iqrOutliers"] = int(((x < q1 - 1.5 * iqr) | (x > q3 + 1.5 * iqr)).sum())
    counts, edges = np.histogram(x, bins=min(50, n_unique))
    out["histogram"] = {"counts": [int(c) for c in counts], "edges": [clean(e) for e in edges]}
    vc = sorted(x.value_counts().items(), key=lambda kv: (-kv[1], kv[0]))[:10]
    out["top"] = [[clean(v), int(c)] for v, c in vc]
    return out


def text_column(s: pd.Series):
    x = s.dropna().astype(str)
    vc = sorted(x.value_counts().items(), key=lambda kv: (-kv[1], kv[0]))[:10]
    return {
        "count": int(x.count()),
        "missing": int(s.isna().sum()),
        "distinct": int(x.nunique()),
        "top": [[v, int(c)] for v, c in vc],
    }


def profile(df: pd.DataFrame, period=None, acf_columns=(), nlags=0):
    numeric = [c for c in df.columns if pd.api.types.is_numeric_dtype(df[c])]
    corr_cols = [c for c in numeric if df[c].nunique() > 1 and df[c].count() >= 2][:30]
    out = {
        "rows": int(len(df)),
        "duplicateRows": int(df.duplicated().sum()),
        "columns": {
            c: numeric_column(df[c]) if c in numeric else text_column(df[c]) for c in df.columns
        },
        "correlations": {
            "columns": corr_cols,
            "pearson": [[clean(v) for v in row] for row in df[corr_cols].corr().values],
            "spearman": [
                [clean(v) for v in row] for row in df[corr_cols].corr("spearman").values
            ],
        },
    }
    if period is not None:
        means = df.groupby(period)[list(acf_columns)].mean().sort_index()
        out["periods"] = int(len(means))
        out["acf"] = {
            c: [clean(v) for v in acf(means[c].dropna().values, nlags=nlags, fft=False)[1:]]
            for c in acf_columns
        }
    return out


mroz = pd.read_csv(DATA + "wooldridge_mroz.csv", float_precision="round_trip")
macro = pd.read_csv(DATA + "us_macro_quarterly_1959q1_2009q3.csv", float_precision="round_trip")
macro["_period"] = macro["year"] * 4 + macro["quarter"]
pwt = pd.read_csv(DATA + "pwt10_sample_21_countries.csv", float_precision="round_trip")
bls = pd.read_json(DATA + "bls_unemployment_across_industries.json", convert_dates=False)

result = {
    "mroz": profile(mroz),
    "us_macro": profile(
        macro.drop(columns=["_period"]),
        period=macro["_period"],
        acf_columns=("realgdp", "tbilrate", "unemp"),
        nlags=8,
    ),
    "pwt": profile(pwt, period=pwt["year"], acf_columns=("pop", "hc", "labsh"), nlags=5),
    "bls": profile(
        bls, period=bls["date"].str.slice(0, 7), acf_columns=("count", "rate"), nlags=12
    ),
}
json.dump(result, sys.stdout, separators=(",", ":"))
