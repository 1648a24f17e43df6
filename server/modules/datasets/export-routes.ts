import { idParamSchema } from '../../../common/api';
import { datasetDownloadQuerySchema } from '../../../common/dataset-export';
import type { Api, AppContext } from '../../context';
import { currentUser } from '../../platform/access';
import { attachmentDisposition, createDatasetExporter, downloadFileName } from './export';
import type { createDatasetsService } from './service';

/**
 * GET /api/datasets/:id/download?format=csv|parquet: the stored data of a dataset the caller may
 * see (the catalog's rules: own entries, entries of their projects, every entry for admins; 404
 * otherwise), written by DuckDB in the chosen format.
 */
export function datasetExportRoutes(
  app: Api,
  ctx: AppContext,
  service: Pick<ReturnType<typeof createDatasetsService>, 'get'>,
): void {
  const exporter = createDatasetExporter(ctx.config.dataDir);
  app.addHook('onClose', async () => exporter.close());

  app.get('/api/datasets/:id/download', {
    config: { access: 'user' },
    schema: { params: idParamSchema, querystring: datasetDownloadQuerySchema },
    handler: async (request, reply) => {
      const dataset = await service.get(currentUser(request), request.params.id);
      const { format } = request.query;
      const file = await exporter.write(dataset.id, format);
      return reply
        .header('Content-Type', file.contentType)
        .header('Content-Length', String(file.bytes))
        .header(
          'Content-Disposition',
          attachmentDisposition(downloadFileName(dataset.name, format)),
        )
        .header('Cache-Control', 'no-store')
        .send(file.stream);
    },
  });
}
