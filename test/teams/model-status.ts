import { expect } from 'vitest';
import type { ModelStatusReply } from '../../common/teams/model';
import type { Api } from '../../server/platform/api';
import { client } from '../client';

/** GET /api/agents/model-team/status/{id}, asserted 200 (the Model team's API tests). */
export async function modelStatus(app: Api, token: string, id: string): Promise<ModelStatusReply> {
  const res = await client(app, token).get(`/api/agents/model-team/status/${id}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as ModelStatusReply;
}
