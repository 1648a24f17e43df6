import { plural } from '../../../../../common/text';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import {
  dataPhaseRow,
  missingTokenLabel,
  type LoadingResult,
  type SourceResult,
} from '../../../../../common/teams/data';
import { registerDataset } from '../catalog';
import { sha256File } from '../catalog-source';
import { data } from '../definition';
import { originalIn, phaseDeps, rethrowReadable, type PhaseDeps } from '../phase-deps';

/**
 * Phase 2, Data Loading: the original loaded into DuckDB (its missing-value tokens read as
 * missing), its Parquet copy written, and the dataset registered in the catalog with the fields
 * its profile computes; recorded as the session's input dataset. A catalog dataset is used where
 * it is stored.
 */
export const loadingPhase = data.phase('loading', {
  name: dataPhaseRow('loading').name,
  description:
    'Loads the file into DuckDB, writes its Parquet copy and registers it in the datasets catalog.',
  timeoutSeconds: 600,
  run: (ctx) => runLoading(phaseDeps(ctx), ctx.resultOf('source'), ctx.input.missingTokens),
});

export async function runLoading(
  deps: PhaseDeps,
  source: SourceResult,
  missingTokens?: readonly string[],
): Promise<LoadingResult> {
  const { profiling, log } = deps;
  if (source.format === 'parquet') return storedCopy(deps, source);
  const work = await profiling.files.workDir(deps.sessionId);
  const original = originalIn(work, source.format);
  const parquet = path.join(work, 'data.parquet');
  try {
    const { table } = await profiling.engine.load(
      original,
      source.fileName,
      source.format,
      parquet,
      { missingTokens },
    );
    await log(
      `Loaded ${table.rows} rows and ${table.columns.length} columns into DuckDB; wrote the Parquet copy`,
    );
    const tokens = Object.entries(table.missingTokens?.columns ?? {});
    if (tokens.length > 0) {
      await log(
        `Read missing-value tokens as missing in ${plural(tokens.length, 'column')}: ${tokens
          .slice(0, 8)
          .map(
            ([column, found]) =>
              `${column} (${found.map((t) => `${missingTokenLabel(t.token)} x${t.count}`).join(', ')})`,
          )
          .join('; ')}`,
      );
    }
    if (table.dropped.length > 0) {
      await log(
        `Left out ${plural(table.dropped.length, 'empty column')} under a blank header (a trailing delimiter)`,
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
    deps.provenance.input({
      kind: 'dataset',
      id: dataset.id,
      sha256: await sha256File(parquetOf(deps, dataset.id)),
    });
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

const parquetOf = (deps: PhaseDeps, datasetId: string) => deps.profiling.files.parquet(datasetId);

/** A catalog dataset is read where it is stored: nothing is copied or registered again. */
async function storedCopy(deps: PhaseDeps, source: SourceResult): Promise<LoadingResult> {
  try {
    const page = await deps.profiling.engine.preview(parquetOf(deps, source.originId), 1, 0);
    await deps.log(
      `Using the stored copy of "${source.name}": ${page.total} rows and ${page.columns.length} columns, nothing copied`,
    );
    return {
      datasetId: source.originId,
      name: source.name,
      rows: page.total,
      columns: page.columns,
      dropped: [],
    };
  } catch (e) {
    return rethrowReadable(e);
  }
}
