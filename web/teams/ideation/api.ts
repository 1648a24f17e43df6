import {
  ideationLogsReplySchema,
  saveIdeationReplySchema,
  startIdeationReplySchema,
  type SaveIdeationRequest,
  type StartIdeationRequest,
} from '../../../common/teams/ideation';
import { checkedApi } from '../../api/client';

/** The Ideation team's calls (agent-teams.md §7), each reply checked by its schema. */
export const IDEATION_BASE = '/api/agents/ideation-team';

export const ideationApi = {
  start: (body: StartIdeationRequest) =>
    checkedApi.post(startIdeationReplySchema, IDEATION_BASE, body),
  logs: (sessionId: string, signal?: AbortSignal) =>
    checkedApi.get(
      ideationLogsReplySchema,
      `${IDEATION_BASE}/logs/${encodeURIComponent(sessionId)}`,
      signal,
    ),
  save: (body: SaveIdeationRequest) =>
    checkedApi.post(saveIdeationReplySchema, `${IDEATION_BASE}/save`, body),
};

/** Where a question goes to become a literature review. */
export const literatureReviewHref = (question: string) =>
  `/app/literature-team?question=${encodeURIComponent(question)}`;
