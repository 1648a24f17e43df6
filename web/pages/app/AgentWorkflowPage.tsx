/** Placeholder: this screen is being built (see its issue). */
export default function AgentWorkflowPage() {
  return <div>AgentWorkflowPage</div>;
}
