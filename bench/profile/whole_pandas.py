"""pandas' side of whole.ts: read_csv + describe + isna().sum() + corr, one whole process."""
import sys

import pandas as pd

df = pd.read_csv(sys.argv[1])
d = df.describe()
m = df.isna().sum()
c = df.corr(numeric_only=True)
