import type { ApiResult } from '../../api/client';
import { isFailure } from '../../api/client';

/** The texts the admin screen shows after approve and reject, word for word. */
export const DECISION_MESSAGES = {
  approved: {
    success: 'User approved successfully!',
    failure: 'Failed to approve user',
    exception: 'An error occurred while approving user',
  },
  rejected: {
    success: 'User rejected successfully!',
    failure: 'Failed to reject user',
    exception: 'An error occurred while rejecting user',
  },
} as const;

export interface Outcome {
  ok: boolean;
  text: string;
}

/** Runs approve or reject and returns what to show: server message on failure, else the spec text. */
export async function decisionOutcome(
  status: keyof typeof DECISION_MESSAGES,
  run: () => Promise<ApiResult<unknown>>,
): Promise<Outcome> {
  const texts = DECISION_MESSAGES[status];
  try {
    const reply = await run();
    if (isFailure(reply)) return { ok: false, text: reply.message ?? texts.failure };
    return { ok: true, text: texts.success };
  } catch (err) {
    console.error(texts.exception, err);
    return { ok: false, text: texts.exception };
  }
}
