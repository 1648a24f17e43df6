import { SESSION_STATUS_LABELS } from '../../../common/agents';
import { teamHref, type TeamManifest } from '../manifest';
import { PROJECT_PARAM, SESSION_PARAM, type OpenSession } from './teamScope';

/**
 * The address that reopens a team's session on its screen (`/app/<route>?sessionId=`, with the
 * project when given); a team without a screen gets the path its screen would have.
 */
export function teamSessionHref(
  manifests: readonly Pick<TeamManifest, 'id' | 'route'>[],
  teamId: string,
  sessionId: string,
  projectId?: string | null,
): string {
  const manifest = manifests.find((m) => m.id === teamId);
  const path = manifest ? teamHref(manifest) : `/app/${teamId}-team`;
  const query = new URLSearchParams({ [SESSION_PARAM]: sessionId });
  if (projectId) query.set(PROJECT_PARAM, projectId);
  return `${path}?${query.toString()}`;
}

/** 'Waiting for Input at checkpoint 2', 'Processing (Literature Search)'. */
export function openSessionState(
  session: Pick<OpenSession, 'status' | 'checkpoint' | 'phaseName'>,
) {
  const label = SESSION_STATUS_LABELS[session.status];
  if (session.status === 'waiting_for_input' && session.checkpoint !== null) {
    return `${label} at checkpoint ${session.checkpoint}`;
  }
  return session.phaseName ? `${label} (${session.phaseName})` : label;
}
