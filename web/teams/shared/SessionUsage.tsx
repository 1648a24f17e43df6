import { UsageLine } from '../../components/UsageLine';
import { useSessionsUsage } from '../../api/queries/usage';
import { useTeamScope } from './teamScope';

/**
 * Above every team screen's work (TeamScreenLayout): the model calls, tokens and estimated cost
 * of the session the screen shows, read again when its status or checkpoint changes and every
 * few seconds while it runs.
 */
export function SessionUsage() {
  const shown = useTeamScope()?.shown;
  const ids = shown ? [shown.sessionId] : [];
  const usage = useSessionsUsage(
    ids,
    shown ? `${shown.status}:${shown.checkpoint ?? ''}` : '',
    shown?.status === 'processing',
  );
  if (!shown || usage.isError) return null;
  return <UsageLine label="This session" totals={usage.data?.total} testId="session-usage" />;
}
