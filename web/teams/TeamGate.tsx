import { Suspense } from 'react';
import Alert from '@mui/material/Alert';
import { useAgentTeams } from '../api/queries/agents';
import { LoadingSkeleton } from '../components/LoadingSkeleton';
import type { TeamManifest } from './manifest';
import { TeamComingSoon } from './TeamComingSoon';

/**
 * A team's route: the screen when this server runs the team, the spec's "coming soon" when it
 * does not register it, and the server's reason when it is registered but cannot run here (an
 * engine not installed). Readiness comes from GET /api/agents/teams, never from a label.
 */
export function TeamGate({ manifest }: { manifest: TeamManifest }) {
  const teams = useAgentTeams();
  if (teams.isPending) return <LoadingSkeleton />;
  if (teams.isError) {
    return <Alert severity="error">Could not load the teams: {teams.error.message}</Alert>;
  }
  const info = teams.data.teams.find((t) => t.id === manifest.id);
  if (!info) return <TeamComingSoon team={manifest.name} />;
  const { Screen } = manifest;
  return (
    <>
      {!info.available && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {info.reason ?? `The ${manifest.name} team cannot run on this server right now.`}
        </Alert>
      )}
      <Suspense fallback={<LoadingSkeleton />}>
        <Screen />
      </Suspense>
    </>
  );
}
