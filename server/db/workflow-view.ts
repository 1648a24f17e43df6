import type { Workflow } from '../../common/workflows';
import type { WorkflowRow } from './schema/workflows';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * A stored workflow as the API shows it: one shape for the workflows routes and the project's
 * research record, kept beside the row it reads so both layers can use it.
 */
export function describeWorkflow(row: WorkflowRow): Workflow {
  return {
    id: row.id,
    projectId: row.projectId,
    ownerId: row.ownerId,
    name: row.name,
    status: row.status,
    currentStep: row.currentStep,
    steps: row.steps,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    startedAt: iso(row.startedAt),
    completedAt: iso(row.completedAt),
  };
}
