import { ideation } from './definition';
import { contextualizePhase } from './contextualize';
import { discoverPhase } from './discover';
import { finalizePhase } from './finalize';
import { ideatePhase } from './ideate';
import { refinePhase } from './refine';
import { IDEATION_AGENT_IDS, registerIdeationRoutes } from './routes';
import { ideationInputSchema } from '../../../../common/teams/ideation';

const HUMAN_PLAN = ['ideate', 'refine', 'contextualize', 'finalize'];

/**
 * The Ideation team (agent-teams.md §2-§4, §7): Ideator, Refiner, Contextualizer, Finalizer,
 * with trend discovery before the Ideator in automatic mode. No checkpoints: the screen follows
 * the log until TERMINATE.
 */
export const ideationTeam = ideation.build({
  phases: [discoverPhase, ideatePhase, refinePhase, contextualizePhase, finalizePhase],
  agents: [
    {
      id: IDEATION_AGENT_IDS.human,
      name: 'Ideation (from an idea)',
      description: 'Research questions from your idea, grounded in works retrieved from OpenAlex.',
      phases: HUMAN_PLAN,
      inputSchema: ideationInputSchema.options[0],
    },
    {
      id: IDEATION_AGENT_IDS.automatic,
      name: 'Ideation (trend-driven)',
      description:
        'Research questions on the economics topics whose publication output grew most in OpenAlex.',
      phases: ['trends', ...HUMAN_PLAN],
      inputSchema: ideationInputSchema.options[1],
    },
  ],
  finalOutputs: (results) => results.finalize ?? null,
  routes: { prefix: '/api/agents/ideation-team', register: registerIdeationRoutes },
});
