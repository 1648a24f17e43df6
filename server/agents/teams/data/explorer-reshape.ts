import { rm } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { Dataset } from '../../../../common/datasets';
import { derivedDatasetReplySchema, reshapeRequestSchema } from '../../../../common/teams/data';
import { teamActor, type Api, type SessionActor } from '../../kit';
import type { DataKit } from './data-kit';

/**
 * POST /datasets/:id/reshape of the Data Explorer: a stored dataset turned from wide to long or
 * from long to wide (the profiling engine's reshape.ts), saved as a new catalog dataset the way
 * features and integration are: derived, with the source dataset and the spec as its
 * provenance. Unknown columns and impossible requests are 400s, results past the row or
 * column limit 422s (the engine's DataErrors, through `refuse`).
 */

const idParams = z.object({ id: z.uuid({ message: 'id must be a dataset id' }) });

/** What explorer.ts shares with this route: reading a stored dataset and saving a result. */
export interface ExplorerHelpers {
  storedData(actor: SessionActor, id: string): Promise<{ dataset: Dataset; file: string }>;
  saveDerived(
    actor: SessionActor,
    parquet: string,
    meta: { name: string; description: string; citation: string; details: Record<string, unknown> },
  ): Promise<Dataset>;
  refuse(e: unknown): never;
}

export function registerReshapeRoute(app: Api, kit: DataKit, helpers: ExplorerHelpers): void {
  const { profiling } = kit.services;
  app.post(
    '/datasets/:id/reshape',
    {
      config: { access: 'user' as const },
      schema: {
        params: idParams,
        body: reshapeRequestSchema,
        response: { 201: derivedDatasetReplySchema },
      },
    },
    async (request, reply) => {
      const actor = teamActor(request);
      const { dataset, file } = await helpers.storedData(actor, request.params.id);
      const { spec, name } = request.body;
      const out = await profiling.files.scratch('data.parquet');
      let notes: string[];
      try {
        notes = (await profiling.engine.reshape(file, spec, out)).notes;
      } catch (e) {
        await rm(path.dirname(out), { recursive: true, force: true });
        return helpers.refuse(e);
      }
      const how = spec.direction === 'wide_to_long' ? 'Wide to long' : 'Long to wide';
      const saved = await helpers.saveDerived(actor, out, {
        name,
        description: `${how} reshape of "${dataset.name}": ${notes.join(' ')}`,
        citation: `Derived from catalog dataset ${dataset.id} (${dataset.name}).`,
        details: { derivedFrom: dataset.id, reshape: spec },
      });
      return reply.code(201).send({
        success: true as const,
        message: `Saved "${saved.name}"`,
        data: { dataset: saved, notes },
      });
    },
  );
}
