import type { z } from 'zod';
import type { AgentSession } from '../../../common/agents';
import type { WorkflowHandoff } from '../../../common/workflows';
import type { TeamWorkflowAdapter, WorkflowStepHarvest, WorkflowStepStart } from '../runtime/team';
import type { Workspace } from './workspace';

/**
 * The typed way a team declares how it runs as a workflow step (its workflow.ts):
 *
 *   export const literatureWorkflow = defineWorkflowAdapter({
 *     config: z.object({ researchQuestion: z.string().optional(), ... }).strict(),
 *     feed: async (config, handoff) => ({ input: {...}, inputs: [...] }),
 *     harvest: async (session) => ({ handoff: { review: ... }, outputs: [...] }),
 *   });
 *
 * and `workflow: literatureWorkflow` in its team.build(). `feed` gets the config parsed by the
 * schema; the runtime checks the config when the workflow is created and the input when the
 * step's session starts.
 */
export interface WorkflowAdapterSpec<C extends z.ZodType<Record<string, unknown>>> {
  config: C;
  feed(
    config: z.output<C>,
    handoff: WorkflowHandoff,
    workspace: Workspace,
  ): Promise<WorkflowStepStart> | WorkflowStepStart;
  harvest(
    session: AgentSession,
    workspace: Workspace,
    config: z.output<C>,
  ): Promise<WorkflowStepHarvest> | WorkflowStepHarvest;
}

export function defineWorkflowAdapter<C extends z.ZodType<Record<string, unknown>>>(
  spec: WorkflowAdapterSpec<C>,
): TeamWorkflowAdapter {
  return {
    config: spec.config,
    feed: async (config, handoff, workspace) =>
      spec.feed(spec.config.parse(config), handoff, workspace),
    harvest: async (session, workspace, config) =>
      spec.harvest(session, workspace, spec.config.parse(config)),
  };
}

export type { TeamWorkflowAdapter, WorkflowStepHarvest, WorkflowStepStart };
