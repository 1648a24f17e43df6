import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useAgentTeams } from '../../api/queries/agents';

/**
 * Shown on a team screen before Start when the team's steps need a language model and this user
 * has none (neither their own key nor the server's). `computedStepsRun` says what still works.
 */
export function ModelRequiredNotice({ computedStepsRun }: { computedStepsRun?: string }) {
  const teams = useAgentTeams();
  const llm = teams.data?.llm;
  if (!llm || llm.configured) return null;
  return (
    <Alert
      severity="warning"
      sx={{ mb: 2 }}
      action={
        <Button
          component={RouterLink}
          to="/app/settings?section=api-keys"
          color="inherit"
          size="small"
        >
          Settings
        </Button>
      }
    >
      No language model is configured for your account, so the steps that need one cannot run.
      {computedStepsRun ? ` ${computedStepsRun}` : ''} Add your own API key under Settings &gt; API
      Keys, or ask an administrator to configure a model on the server.
    </Alert>
  );
}
