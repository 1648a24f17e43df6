import { z } from 'zod';
import type { WorkflowIo, WorkflowStep } from '../../../common/workflows';
import type { TeamDefinition, TeamWorkflowAdapter } from '../runtime/team';

/**
 * A team without a workflow adapter of its own (the runtime's test team) takes part as it is:
 * the step's config is `{ input, configuration? }`, checked by the team's schemas, and it hands
 * nothing on.
 */
function plainAdapter(team: TeamDefinition): TeamWorkflowAdapter {
  const config = z
    .object({
      input: team.inputSchema,
      configuration: (team.configurationSchema ?? z.record(z.string(), z.unknown())).optional(),
    })
    .strict();
  return {
    config,
    async feed(raw) {
      const parsed = config.parse(raw);
      return {
        input: parsed.input,
        ...(parsed.configuration ? { configuration: parsed.configuration } : {}),
        inputs: [],
      };
    },
    harvest: async () => ({ handoff: {}, outputs: [] }),
  };
}

export function adapterOf(team: TeamDefinition): TeamWorkflowAdapter {
  return team.workflow ?? plainAdapter(team);
}

/**
 * Names, for each input an adapter did not attribute, the latest earlier step that produced it
 * (same kind and id, or same text when it has no id), so the record shows how each step was fed.
 */
export function attributeInputs(inputs: WorkflowIo[], earlier: WorkflowStep[]): WorkflowIo[] {
  return inputs.map((input) => {
    if (input.fromStep !== undefined) return input;
    for (let j = earlier.length - 1; j >= 0; j--) {
      const produced = earlier[j]!.outputs.some(
        (o) =>
          o.kind === input.kind &&
          (input.id !== undefined ? o.id === input.id : o.label === input.label),
      );
      if (produced) return { ...input, fromStep: earlier[j]!.index };
    }
    return input;
  });
}
