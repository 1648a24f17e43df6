import type { Workflow } from '../../../../common/workflows';
import { UsageLine } from '../../../components/UsageLine';
import { useSessionsUsage } from '../../../api/queries/usage';

/** The model calls, tokens and estimated cost of a customized workflow's steps together. */
export function WorkflowUsage({ workflow, live }: { workflow: Workflow; live: boolean }) {
  const ids = workflow.steps.flatMap((s) => (s.sessionId ? [s.sessionId] : []));
  const version = workflow.steps.map((s) => `${s.status}`).join(',');
  const usage = useSessionsUsage(ids, version, live);
  if (ids.length === 0 || usage.isError) return null;
  return <UsageLine label="This workflow" totals={usage.data?.total} testId="workflow-usage" />;
}
