import { saveIdeationReplySchema, type SaveIdeationRequest } from '../../../common/teams/ideation';
import { checkedApi } from '../../api/client';

/**
 * The Ideation team's routes. Start and the polled logs call go through the screen's session
 * (ideationSession.ts); saving the final questions into a project is a call of its own, its
 * reply checked by its schema.
 */
export const IDEATION_BASE = '/api/agents/ideation-team';

export const ideationApi = {
  save: (body: SaveIdeationRequest) =>
    checkedApi.post(saveIdeationReplySchema, `${IDEATION_BASE}/save`, body),
};

/**
 * Where a question goes to become a literature review: the Literature screen with the question
 * filled in, in the same project when the run has one.
 */
export const literatureReviewHref = (question: string, projectId?: string | null) =>
  `/app/literature-team?${new URLSearchParams({
    question,
    ...(projectId ? { projectId } : {}),
  }).toString()}`;
