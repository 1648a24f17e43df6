import { TeamComingSoon } from '../TeamComingSoon';

/** Placeholder until the Model team screen is built (agent-teams.md). */
export default function ModelTeamPage() {
  return <TeamComingSoon team="Model" />;
}
