import { TEAMS, type TeamId } from '../../../../common/constants';

/** The screen of each team: /app/<id>-team; the customized workflow lives at /app/agent-workflow. */
export function teamPath(teamId: string): string {
  if (teamId === 'customized') return '/app/agent-workflow';
  return `/app/${teamId}-team`;
}

/** The display name of a team id ('literature' -> 'Literature Review'); the id itself if unknown. */
export function teamName(teamId: string): string {
  return TEAMS.find((t) => t.id === (teamId as TeamId))?.name ?? teamId;
}

/** A session's screen, opened on that session. */
export function sessionPath(teamId: string, sessionId: string): string {
  return `${teamPath(teamId)}?session=${encodeURIComponent(sessionId)}`;
}
