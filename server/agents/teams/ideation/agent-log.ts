import { neutraliseMarkers, type IdeationAgent } from '../../../../common/teams/ideation';
import type { PhaseLog } from '../../kit';

/**
 * How the agents write to the session's log: every line starts with the agent's name, which is
 * how the screen fills each agent's panel, and never carries a marker the screen acts on.
 */

/** Writes one line of an agent's section: "Refiner: ...", after the work it describes. */
export function say(log: PhaseLog, agent: IdeationAgent, text: string): Promise<void> {
  return log(`${agent}: ${neutraliseMarkers(text)}`);
}

/** Same, as a warning (something was dropped or corrected). */
export function warn(log: PhaseLog, agent: IdeationAgent, text: string): Promise<void> {
  return log.warn(`${agent}: ${neutraliseMarkers(text)}`);
}
