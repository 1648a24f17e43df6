/**
 * A computed number as the data tables and charts show it. Kept apart from ChartView, so tabs
 * that only show numbers do not load the chart library.
 */
export function fmtNumber(v: number | null | undefined, digits = 3): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–';
  const a = Math.abs(v);
  if (a !== 0 && (a >= 1e6 || a < 1e-3)) return v.toExponential(2);
  if (Number.isInteger(v)) return v.toLocaleString('en');
  return v.toLocaleString('en', { maximumSignificantDigits: digits + 1 });
}
