import { ideationInputSchema, type IdeationPhaseKey } from '../../../../common/teams/ideation';
import { IDEATION_AGENT_IDS, ideation } from './definition';
import { contextualizePhase } from './phases/contextualize';
import { finalizePhase } from './phases/finalize';
import { ideatePhase } from './phases/ideate';
import { refinePhase } from './phases/refine';
import { trendsPhase } from './phases/trends';
import { registerIdeationRoutes } from './routes';
import { ideationWorkflow } from './workflow';

const HUMAN_PLAN: IdeationPhaseKey[] = ['ideate', 'refine', 'contextualize', 'finalize'];

/**
 * The Ideation team: Ideator, Refiner, Contextualizer, Finalizer, with trend discovery before
 * the Ideator in automatic mode. No checkpoints: the screen follows the log until TERMINATE.
 */
export const ideationTeam = ideation.build({
  phases: [trendsPhase, ideatePhase, refinePhase, contextualizePhase, finalizePhase],
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
  workflow: ideationWorkflow,
});
