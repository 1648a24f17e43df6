import { stat } from 'node:fs/promises';
import path from 'node:path';
import {
  dataPhaseRow,
  type LoadingResult,
  type SourceResult,
} from '../../../../../common/teams/data';
import { registerDataset } from '../catalog';
import { data } from '../definition';
import { originalIn, phaseDeps, rethrowReadable, type PhaseDeps } from '../phase-deps';

/**
 * Phase 2, Data Loading: the original loaded into DuckDB, its Parquet copy written, and the
 * dataset registered in the catalog with the fields its profile computes.
 */
export const loadingPhase = data.phase('loading', {
  name: dataPhaseRow('loading').name,
  description:
    'Loads the file into DuckDB, writes its Parquet copy and registers it in the datasets catalog.',
  timeoutSeconds: 600,
  run: (ctx) => runLoading(phaseDeps(ctx), ctx.resultOf('source')),
});

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
    return rethrowReadable(e);
  }
}
