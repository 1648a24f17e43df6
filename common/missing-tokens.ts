/**
 * Cell texts read as a missing value when a file is loaded (R writes NA, Stata `.`, spreadsheets
 * `-` or an empty cell), unless the researcher chooses others for the upload. In a module of
 * its own, without zod, so that the profiling engine can load and profile a file without
 * importing the contracts' schemas (start-up of a process that only profiles; see
 * docs/performance.md, "Data profiling"). common/teams/data.ts re-exports it.
 */
export const DEFAULT_MISSING_TOKENS = ['', 'NA', 'N/A', 'NaN', 'null', '.', '-'] as const;
