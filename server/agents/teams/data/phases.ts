import { fredApiKeyFor, kaggleCredentialsFor } from './credentials';
import { rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  API_SOURCE_INFO,
  parseCleaningFeedback,
  type AnalysisPhaseResult,
  type DataInput,
  type LoadingResult,
  type ProfilingCheckpoint,
  type ProfilingResult,
  type SourceResult,
} from '../../../../common/teams/data';
import type { ProfilingService } from '../../../engines/profiling/service';
import { isDataError, type FileCheck } from '../../../engines/profiling/index';
import type { FetchedDataset } from '../../../sources/data-source';
import { DataSourceError } from '../../../sources/data-source';
import type { DataSourcesService } from '../../../sources/data-sources-service';
import type { PhaseLog, Workspace } from '../../kit';
import { registerDataset } from './catalog';
import { interpret } from './interpretation';

/**
 * The Data team's four phases (agent-teams.md §4 Data) as plain functions of what they use, so
 * the team file only wires them. Every number they return comes from the profiling engine.
 */

export interface PhaseDeps {
  sessionId: string;
  profiling: ProfilingService;
  sources: DataSourcesService;
  workspace: Workspace;
  log: PhaseLog;
  signal: AbortSignal;
}

/** A failure the researcher can act on: its message is the session's error text. */
export class DataTeamError extends Error {}

const readable = (e: unknown): never => {
  if (e instanceof DataSourceError || isDataError(e)) throw new DataTeamError(e.message);
  throw e;
};

const originalIn = (work: string, format: 'csv' | 'json') => path.join(work, `original.${format}`);

// --- Phase 1: Data Source -------------------------------------------------------------------

export async function runSource(deps: PhaseDeps, input: DataInput): Promise<SourceResult> {
  const { profiling, sources, log, signal } = deps;
  const work = await profiling.files.workDir(deps.sessionId);
  let fetched: FetchedDataset;
  try {
    if (input.dataSource === 'upload') {
      const staged = input.uploadId ? await profiling.files.staged(input.uploadId) : null;
      if (!staged) {
        throw new DataTeamError(
          'The uploaded file is no longer on the server (uploads are kept for a day). Upload it again.',
        );
      }
      const fileName = input.fileName ?? path.basename(staged);
      const check = await profiling.engine.check(staged, fileName);
      const target = originalIn(work, check.format);
      await rename(staged, target);
      await rm(path.dirname(staged), { recursive: true, force: true });
      fetched = {
        source: 'url',
        datasetId: fileName,
        name: fileName.replace(/\.(csv|json)$/i, ''),
        description: `Uploaded file ${fileName}.`,
        file: target,
        format: check.format,
        fileName,
        records: check.records,
        license: 'As stated by the uploader.',
        citation: `${fileName}, uploaded ${new Date().toISOString().slice(0, 10)}.`,
        url: '',
        lastUpdated: null,
      };
      await log(`Received ${fileName} (${(await stat(target)).size} bytes)`);
    } else if (input.dataSource === 'api') {
      const api = input.apiSource ?? 'world_bank';
      const id = input.datasetId ?? '';
      const label = API_SOURCE_INFO[api].label;
      await log(`Fetching ${id} from ${label}`);
      if (api === 'world_bank') fetched = await sources.sources.worldbank.fetch(id, work, signal);
      else if (api === 'imf') fetched = await sources.sources.imf.fetch(id, work, signal);
      else if (api === 'fred') {
        const apiKey = await fredApiKeyFor(deps.workspace, sources);
        fetched = await sources.sources.fred.fetch(id, work, { apiKey, signal });
      } else {
        const credentials = await kaggleCredentialsFor(deps.workspace, sources);
        fetched = await sources.sources.kaggle.fetch(id, work, { credentials, signal });
      }
      await log(
        `${label} returned ${fetched.records === null ? 'a file' : `${fetched.records} records`} for ${fetched.datasetId}`,
      );
    } else {
      await log(`Downloading ${input.datasetId ?? ''}`);
      fetched = await sources.sources.url.fetch(input.datasetId ?? '', work, signal);
      const { size } = await stat(fetched.file);
      await log(`Downloaded ${fetched.fileName} (${size} bytes)`);
    }
  } catch (e) {
    return readable(e);
  }

  let check: FileCheck;
  try {
    check = await profiling.engine.check(fetched.file, fetched.fileName, fetched.format);
  } catch (e) {
    await rm(fetched.file, { force: true });
    return readable(e);
  }
  const target = originalIn(work, check.format);
  if (fetched.file !== target) await rename(fetched.file, target);
  const { size } = await stat(target);
  await log(
    `Checked the content: ${check.format.toUpperCase()}${check.delimiter ? ` with "${check.delimiter === '\t' ? 'tab' : check.delimiter}" delimiters` : ''}, ${check.records} records, UTF-8`,
  );
  return {
    origin:
      input.dataSource === 'upload'
        ? 'upload'
        : input.dataSource === 'url'
          ? 'url'
          : (input.apiSource ?? 'world_bank'),
    originId: fetched.datasetId,
    name: fetched.name,
    description: fetched.description,
    fileName: fetched.fileName.endsWith(`.${check.format}`)
      ? fetched.fileName
      : `${fetched.fileName}.${check.format}`,
    format: check.format,
    bytes: size,
    records: check.records,
    license: fetched.license,
    citation: fetched.citation,
    url: fetched.url || null,
    lastUpdated: fetched.lastUpdated,
  };
}

// --- Phase 2: Data Loading ------------------------------------------------------------------

export async function runLoading(deps: PhaseDeps, source: SourceResult): Promise<LoadingResult> {
  const { profiling, log } = deps;
  const work = await profiling.files.workDir(deps.sessionId);
  const original = originalIn(work, source.format);
  const parquet = path.join(work, 'data.parquet');
  try {
    const { table } = await profiling.engine.load(
      original,
      source.fileName,
      source.format,
      parquet,
    );
    await log(
      `Loaded ${table.rows} rows and ${table.columns.length} columns into DuckDB; wrote the Parquet copy`,
    );
    if (table.dropped.length > 0) {
      await log(
        `Left out ${table.dropped.length} empty column(s) under a blank header (a trailing delimiter)`,
      );
    }
    const profile = await profiling.engine.profile(parquet);
    const { size } = await stat(original);
    const dataset = await registerDataset(deps.workspace, profile, {
      name: source.name,
      description: source.description,
      origin: source.origin,
      format: source.format,
      license: source.license,
      citation: source.citation,
      originDetails: {
        origin: source.origin,
        id: source.originId,
        url: source.url,
        fileName: source.fileName,
      },
      bytes: size,
    });
    await profiling.files.adopt(dataset.id, {
      parquet,
      original: { file: original, ext: source.format },
    });
    await log(`Registered "${dataset.name}" in the datasets catalog`);
    return {
      datasetId: dataset.id,
      name: dataset.name,
      rows: table.rows,
      columns: table.columns,
      dropped: table.dropped,
    };
  } catch (e) {
    return readable(e);
  }
}

// --- Phase 3: Data Profiling (checkpoint) ---------------------------------------------------

export async function runProfiling(
  deps: PhaseDeps,
  loaded: LoadingResult,
  revision: { feedback: string } | null,
): Promise<ProfilingResult> {
  const { profiling, log, workspace } = deps;
  const parquet = profiling.files.parquet(loaded.datasetId);
  const settings = await workspace.settings.get();
  const cleaningDefaults = {
    imputation: settings.data.imputationStrategy,
    outliers: settings.data.outlierDetection,
    autoCleanData: settings.data.autoCleanData,
  };
  try {
    if (!revision) {
      const profile = await profiling.engine.profile(parquet);
      await log(
        `Profiled ${profile.rowCount} rows: ${profile.columnCount} columns, ${(profile.missingCellsShare * 100).toFixed(1)}% cells missing, ${profile.duplicateRows} duplicate rows, ${profile.alerts.length} alerts`,
      );
      return {
        datasetId: loaded.datasetId,
        datasetName: loaded.name,
        profile,
        cleaningDefaults,
        cleaning: null,
      };
    }
    const spec = parseCleaningFeedback(revision.feedback, {
      imputation: settings.data.imputationStrategy,
      outliers: settings.data.outlierDetection,
    });
    await log(
      `Cleaning as asked: imputation ${spec.imputation}, outliers ${spec.outliers}${spec.outliers !== 'none' ? ` (${spec.outlierAction})` : ''}, ${spec.dropDuplicates ? 'dropping' : 'keeping'} duplicates`,
    );
    const out = await profiling.files.scratch('data.parquet');
    const report = await profiling.engine.clean(parquet, spec, out);
    for (const note of report.notes) await log(note);
    const profile = await profiling.engine.profile(out);
    const { size } = await stat(out);
    const dataset = await registerDataset(workspace, profile, {
      name: `${loaded.name} (cleaned)`,
      description: `${loaded.name}, cleaned at the Data Profiling checkpoint: ${report.notes.join(' ')}`,
      origin: 'derived',
      format: 'parquet',
      license: 'As the source dataset.',
      citation: `Derived from catalog dataset ${loaded.datasetId}.`,
      originDetails: { derivedFrom: loaded.datasetId, cleaning: spec },
      bytes: size,
    });
    await profiling.files.adopt(dataset.id, { parquet: out });
    await rm(path.dirname(out), { recursive: true, force: true });
    await log(
      `Registered the cleaned data as "${dataset.name}" and profiled it again: ${profile.rowCount} rows, ${profile.alerts.length} alerts`,
    );
    return {
      datasetId: dataset.id,
      datasetName: dataset.name,
      profile,
      cleaningDefaults,
      cleaning: {
        spec,
        notes: report.notes,
        rowsBefore: loaded.rows,
        rowsAfter: report.rows,
        sourceDatasetId: loaded.datasetId,
      },
    };
  } catch (e) {
    return readable(e);
  }
}

/** What the checkpoint panel shows besides the profile (the status reply carries the profile). */
export function profilingCheckpoint(result: ProfilingResult): ProfilingCheckpoint {
  return {
    datasetId: result.datasetId,
    datasetName: result.datasetName,
    rows: result.profile.rowCount,
    columns: result.profile.columnCount,
    missingCellsShare: result.profile.missingCellsShare,
    duplicateRows: result.profile.duplicateRows,
    alerts: result.profile.alerts.slice(0, 50),
    cleaningDefaults: result.cleaningDefaults,
    cleaned: result.cleaning !== null,
  };
}

// --- Phase 4: Statistical Analysis ----------------------------------------------------------

export async function runAnalysis(
  deps: PhaseDeps,
  input: DataInput,
  profiled: ProfilingResult,
  options: {
    interpret: boolean;
    generateText: (prompt: { system: string; prompt: string }) => Promise<string>;
  },
): Promise<AnalysisPhaseResult> {
  const { profiling, log, signal } = deps;
  const parquet = profiling.files.parquet(profiled.datasetId);
  let analysis;
  let charts;
  try {
    ({ analysis, charts } = await profiling.engine.analyze(
      parquet,
      input.analysisType,
      profiled.profile,
    ));
  } catch (e) {
    return readable(e);
  }
  await log(
    `Computed the ${input.analysisType} analysis and ${charts.length} charts from the data`,
  );
  const got = options.interpret
    ? await interpret(analysis, profiled.profile, options.generateText, signal)
    : { text: null, note: 'Interpretation turned off for this run.' };
  if (got.text) await log('The language model wrote an interpretation of the computed results');
  else await log(got.note ?? 'No interpretation');
  const interpretation = got.text;
  const interpretationNote = got.note;
  return {
    analysisType: input.analysisType,
    datasetId: profiled.datasetId,
    analysis,
    visualizations: charts,
    interpretation,
    interpretationNote,
  };
}
