import { TeamComingSoon } from '../TeamComingSoon';

/** Placeholder until the Ideation team screen is built (agent-teams.md). */
export default function IdeationTeamPage() {
  return <TeamComingSoon team="Ideation" />;
}
