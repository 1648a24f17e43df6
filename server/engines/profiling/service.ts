import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_DATA_UPLOAD_LIMIT_BYTES } from '../../../common/teams/data';
import { defineService } from '../../platform/services';
import { createDatasetFiles, type DatasetFiles } from './files';
import { createProfilingEngine, type ProfilingEngine } from './index';

/**
 * The profiling engine and the Data team's file store as one kit service: one profiling engine
 * per process (two DuckDB instances, one loading files and one profiling them, each spilling to
 * the service's folder past its memory limit), and the folders where uploads, session files and
 * every stored dataset's original and Parquet copy live.
 */
export interface ProfilingService {
  engine: ProfilingEngine;
  files: DatasetFiles;
  /** Largest data file accepted by upload (DATA_UPLOAD_LIMIT_BYTES). */
  uploadLimitBytes: number;
}

const SWEEP_AGE_MS = 24 * 60 * 60 * 1000;
const SWEEP_EVERY_MS = 60 * 60 * 1000;

export const profilingService = defineService({
  id: 'profiling',
  env: z.object({
    DATA_UPLOAD_LIMIT_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .default(DEFAULT_DATA_UPLOAD_LIMIT_BYTES)
      .describe('Largest CSV or JSON file the Data team accepts by upload or download, in bytes'),
    PROFILING_MEMORY_LIMIT: z
      .string()
      .regex(
        /^\d+(\.\d+)?\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i,
        'PROFILING_MEMORY_LIMIT must look like 1GB or 512MB',
      )
      .default('1GB')
      .describe(
        'Memory DuckDB may use for loading and profiling together before it spills to disk (e.g. 1GB)',
      ),
    PROFILING_THREADS: z.coerce
      .number()
      .int()
      .min(1)
      .max(64)
      .default(2)
      .describe('Worker threads DuckDB uses for profiling'),
  }),
  create({ env, dataDir, log }): ProfilingService & { sweeper: NodeJS.Timeout } {
    const files = createDatasetFiles(dataDir);
    // Uploads whose session never started and the working folders of old sessions go after a day.
    const sweeper = setInterval(() => {
      files
        .sweep(SWEEP_AGE_MS)
        .catch((err: unknown) => log.warn({ err }, 'data files sweep failed'));
    }, SWEEP_EVERY_MS);
    sweeper.unref();
    return {
      engine: createProfilingEngine({
        threads: env.PROFILING_THREADS,
        memoryLimit: env.PROFILING_MEMORY_LIMIT,
        tempDirectory: path.join(dataDir, 'duckdb-tmp'),
      }),
      files,
      uploadLimitBytes: env.DATA_UPLOAD_LIMIT_BYTES,
      sweeper,
    };
  },
  close(service) {
    clearInterval(service.sweeper);
    service.engine.close();
  },
});
