import os from 'node:os';
import type {
  AnalysisResult,
  AnalysisType,
  ChartRequest,
  ChartSpec,
  CleaningSpec,
  DatasetProfile,
  FeatureSpec,
  IntegrationSpec,
  ReshapeSpec,
  TransformReport,
} from '../../../common/teams/data';
import { parseSpec } from './errors';
import { analyze } from './analysis';
import { autoCharts, requestedChart } from './charts';
import { createDuckDb, splitMemoryLimit, type DuckDbOptions } from './duckdb';
import { loadFile, type TableInfo } from './ingest';
import { checkDataFile, type DataFormat, type FileCheck } from './inspect';
import { integrate } from './integrate';
import { asDataError } from './pipeline';
import { previewRows, type RowPage } from './preview';
import { withMissingTokens } from './missing-tokens';
import { profileFile, profileSource } from './profile';
import { withSource } from './source';

export { DataError, isDataError, type DataErrorCode } from './errors';
export { JSON_LIMITS } from './inspect';
export type { FileCheck, DataFormat } from './inspect';
export type { TableInfo, ColumnInfo } from './ingest';
export type { RowPage } from './preview';
export { missingTokensFile } from './missing-tokens';
export { duckDbVersion } from './duckdb';

/**
 * The profiling engine: DuckDB behind a small API that works on files. A data file is checked
 * (`check`, on upload) and loaded (`load`: checked again while copied once to Parquet), and
 * every later call reads the Parquet copy.
 * Refusals are DataErrors with a message for the researcher.
 */
export interface ProfilingEngine {
  /** Content checks of an uploaded or fetched file (`expected` skips the file-name rule). */
  check(file: string, fileName: string, expected?: DataFormat): Promise<FileCheck>;
  /**
   * Checks a file and writes its Parquet copy (once), the copy starting once the header is read
   * (see loadFile), and describes both. Cells that hold one of `missingTokens`
   * (DEFAULT_MISSING_TOKENS when not given) are read as missing; which were found is kept beside
   * the copy.
   */
  load(
    file: string,
    fileName: string,
    expected: DataFormat | undefined,
    parquetFile: string,
    options?: { missingTokens?: readonly string[] },
  ): Promise<{ check: FileCheck; table: TableInfo }>;
  /** The profile, with the missing-value tokens the copy was loaded with (see load). */
  profile(parquetFile: string): Promise<DatasetProfile>;
  /** Profile, analysis of the given type and the charts, on one connection. */
  analyze(
    parquetFile: string,
    type: AnalysisType,
    profile?: DatasetProfile,
  ): Promise<{ profile: DatasetProfile; analysis: AnalysisResult; charts: ChartSpec[] }>;
  chart(parquetFile: string, request: ChartRequest): Promise<ChartSpec>;
  preview(parquetFile: string, limit: number, offset: number): Promise<RowPage>;
  integrate(
    left: string,
    right: string,
    spec: IntegrationSpec,
    out: string,
  ): Promise<TransformReport>;
  features(parquetFile: string, spec: FeatureSpec, out: string): Promise<TransformReport>;
  clean(parquetFile: string, spec: CleaningSpec, out: string): Promise<TransformReport>;
  /** Wide to long or long to wide (reshape.ts). */
  reshape(parquetFile: string, spec: ReshapeSpec, out: string): Promise<TransformReport>;
  close(): void;
}

/**
 * The contracts' schemas and the transforms that parse their specs with them (cleaning,
 * features, reshape) are imported when first used: they pull zod and the shared contracts,
 * which loading and profiling a file do not need, and a process that only profiles spent a
 * third of its start-up importing them (docs/performance.md, "Data profiling").
 */
const contracts = () => import('../../../common/teams/data');

export function createProfilingEngine(options: DuckDbOptions = {}): ProfilingEngine {
  // Profiles and analyses are many independent aggregates over the Parquet copy: run on an
  // instance of their own with one DuckDB thread per query and as many queries side by side as
  // there are threads, they took about a tenth less time and CPU than queries of two threads
  // each (parallel hash aggregates partition and merge; single-threaded ones do not). Loading a
  // file is one big COPY, which does need every thread, so it stays on `db`. Each instance has
  // half of memoryLimit (DuckDB's cap is per instance), so the setting stays the total.
  const threads = options.threads ?? Math.max(1, os.availableParallelism());
  const memoryLimit = splitMemoryLimit(options.memoryLimit ?? '1GB', 2);
  const db = createDuckDb({ ...options, memoryLimit });
  const scans = createDuckDb({ ...options, memoryLimit, threads: 1, connections: threads });
  return {
    check: (file, fileName, expected) => checkDataFile(file, fileName, expected),
    load: (file, fileName, expected, out, opts) =>
      loadFile(db, file, fileName, expected, out, opts?.missingTokens),
    profile: (file) => profileFile(scans, file),
    analyze: (file, type, given) =>
      withSource(scans, file, async (conn, info, pool) => {
        const profile =
          given ?? (await withMissingTokens(await profileSource(conn, info, pool), file));
        const analysis = await analyze(conn, profile, type);
        const charts = await autoCharts(conn, profile);
        return { profile, analysis, charts };
      }),
    chart: (file, request) =>
      withSource(db, file, async (conn, info) => {
        const { chartRequestSchema } = await contracts();
        try {
          return await requestedChart(conn, info, parseSpec(chartRequestSchema, request));
        } catch (e) {
          throw asDataError(e);
        }
      }),
    preview: (file, limit, offset) =>
      withSource(db, file, (conn, info) => previewRows(conn, info, limit, offset)),
    integrate: async (left, right, spec, out) => {
      const { integrationSpecSchema } = await contracts();
      const parsed = parseSpec(integrationSpecSchema, spec);
      return integrate(db, left, right, parsed, out).catch((e: unknown) => {
        throw asDataError(e);
      });
    },
    features: async (file, spec, out) =>
      (await import('./features')).engineerFeatures(db, file, spec, out),
    clean: async (file, spec, out) =>
      (await import('./cleaning')).cleanDataset(db, file, spec, out),
    reshape: async (file, spec, out) => (await import('./reshape')).reshape(db, file, spec, out),
    close: () => {
      db.close();
      scans.close();
    },
  };
}
