import { useSearchParams } from 'react-router';
import { useExecutions } from '../../api/queries/agents';
import { WORKFLOW_TABS, WorkflowView, type WorkflowTab } from './agent-workflow/WorkflowView';
import { defaultSessionId } from './agent-workflow/workflowModel';

/**
 * /app/agent-workflow: the caller's real sessions, agents,
 * research stages and the selected session's live log. The selected session, tab and project
 * live in the address (?session=&tab=&project=) so a link or a reload shows the same view.
 */
export default function AgentWorkflowPage() {
  const [params, setParams] = useSearchParams();
  const executions = useExecutions().data?.executions ?? [];
  const requested = params.get('session');
  const selectedId =
    requested && executions.some((e) => e.sessionId === requested)
      ? requested
      : defaultSessionId(executions);
  const tabParam = params.get('tab');
  const tab: WorkflowTab = WORKFLOW_TABS.includes(tabParam as WorkflowTab)
    ? (tabParam as WorkflowTab)
    : 'overview';

  const update = (changes: Record<string, string | undefined>) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const [k, v] of Object.entries(changes)) {
          if (v === undefined) next.delete(k);
          else next.set(k, v);
        }
        return next;
      },
      { replace: true },
    );

  return (
    // A new view per session: the live state of one session never leaks into another's.
    <WorkflowView
      key={selectedId ?? 'none'}
      selectedId={selectedId}
      onSelect={(id) => update({ session: id })}
      tab={tab}
      onTab={(t) => update({ tab: t === 'overview' ? undefined : t })}
      projectId={params.get('project') ?? undefined}
      onProjectChange={(id) => update({ project: id })}
    />
  );
}
