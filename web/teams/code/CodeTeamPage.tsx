import { TeamComingSoon } from '../TeamComingSoon';

/** Placeholder until the Code team screen is built (agent-teams.md). */
export default function CodeTeamPage() {
  return <TeamComingSoon team="Code" />;
}
