import { TeamComingSoon } from '../TeamComingSoon';

/** Placeholder until the Literature team screen is built (agent-teams.md). */
export default function LiteratureTeamPage() {
  return <TeamComingSoon team="Literature" />;
}
