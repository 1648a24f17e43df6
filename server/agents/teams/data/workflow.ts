import { z } from 'zod';
import {
  ANALYSIS_TYPES,
  API_SOURCES,
  DATA_PHASE_TABLE,
  DATASET_ID_MAX,
} from '../../../../common/teams/data';
import { defineWorkflowAdapter, sessionResults } from '../../kit';

/**
 * Data as a workflow step: the step's config says where the data comes from (a public API, an
 * address, or a dataset already in the catalog; an upload needs the screen) and which analysis
 * to run. It hands on the dataset the analysis read (the cleaned copy when the researcher asked
 * for cleaning) with its columns.
 */
const config = z
  .object({
    dataSource: z.enum(['api', 'url', 'catalog'], {
      message: 'dataSource must be api, url or catalog (an upload needs the Data screen)',
    }),
    analysisType: z.enum(ANALYSIS_TYPES).default('profile'),
    apiSource: z.enum(API_SOURCES).optional(),
    datasetId: z.string().trim().min(1, 'datasetId is required').max(DATASET_ID_MAX),
  })
  .strict()
  .superRefine((c, ctx) => {
    if (c.dataSource === 'api' && !c.apiSource) {
      ctx.addIssue({ code: 'custom', path: ['apiSource'], message: 'Choose an API source' });
    }
  });

export const dataWorkflow = defineWorkflowAdapter({
  config,
  feed: (c) => ({
    input: {
      dataSource: c.dataSource,
      analysisType: c.analysisType,
      datasetId: c.datasetId,
      ...(c.apiSource ? { apiSource: c.apiSource } : {}),
    },
    inputs: [
      {
        kind: 'dataset',
        ...(c.dataSource === 'catalog' ? { id: c.datasetId } : {}),
        label:
          c.dataSource === 'api'
            ? `${c.apiSource}: ${c.datasetId}`
            : `${c.dataSource}: ${c.datasetId}`,
      },
    ],
  }),
  harvest(session) {
    const results = sessionResults(session, DATA_PHASE_TABLE);
    const id = results.profiling?.datasetId ?? results.loading?.datasetId;
    if (!id) throw new Error('The Data session completed without a dataset');
    const name = results.profiling?.datasetName ?? results.loading?.name ?? 'Dataset';
    const columns =
      results.profiling?.profile.columns.map((c) => c.name) ??
      results.loading?.columns.map((c) => c.name) ??
      [];
    return {
      handoff: { dataset: { id, name, columns } },
      outputs: [{ kind: 'dataset', id, label: name }],
    };
  },
});
