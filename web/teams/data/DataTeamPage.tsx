import { TeamComingSoon } from '../TeamComingSoon';

/** Placeholder until the Data team screen is built (agent-teams.md). */
export default function DataTeamPage() {
  return <TeamComingSoon team="Data" />;
}
