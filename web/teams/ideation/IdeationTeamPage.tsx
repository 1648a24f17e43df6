import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Select from '@mui/material/Select';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import PlayArrow from '@mui/icons-material/PlayArrow';
import { IDEATION_WORKFLOW } from '../../../common/teams/ideation';
import { StatusChip, TeamScreenLayout } from '../shared';
import { IdeationWorkflow } from './IdeationWorkflow';
import { useIdeationRun, type RunState } from './useIdeationRun';

const MORE_WORKFLOWS = 'more';

const STATUS: Record<RunState, 'idle' | 'processing' | 'completed' | 'error'> = {
  idle: 'idle',
  generating: 'processing',
  complete: 'completed',
  error: 'error',
};

/**
 * The Ideation screen: choose the workflow, start it, then generate research questions from an
 * idea or from publication trends while four agent panels follow the log.
 */
export default function IdeationTeamPage() {
  const [params] = useSearchParams();
  const [workflow, setWorkflow] = useState<string>(IDEATION_WORKFLOW.value);
  const [started, setStarted] = useState(false);
  const run = useIdeationRun();
  const followId = params.get('sessionId') ?? params.get('session');
  const { follow } = run;

  useEffect(() => {
    // A session in the address (?sessionId=, or a notification's ?session=): show that run.
    if (!followId) return;
    setStarted(true);
    follow(followId);
  }, [followId, follow]);

  const aside = (
    <Stack spacing={2}>
      <FormControl fullWidth>
        <InputLabel id="ideation-workflow-label">Workflow</InputLabel>
        <Select
          labelId="ideation-workflow-label"
          label="Workflow"
          value={workflow}
          onChange={(e) => setWorkflow(e.target.value)}
          disabled={run.state === 'generating'}
        >
          <MenuItem value={IDEATION_WORKFLOW.value}>{IDEATION_WORKFLOW.label}</MenuItem>
          <MenuItem value={MORE_WORKFLOWS} disabled>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <span>More workflows in developing</span>
              <Chip label="coming soon" size="small" variant="outlined" />
            </Stack>
          </MenuItem>
        </Select>
      </FormControl>
      <Typography variant="body2" color="textSecondary">
        {IDEATION_WORKFLOW.description}
      </Typography>
      <Box>
        <Button
          variant="contained"
          startIcon={<PlayArrow />}
          onClick={() => setStarted(true)}
          disabled={started}
        >
          Start Workflow
        </Button>
      </Box>
    </Stack>
  );

  return (
    <TeamScreenLayout
      title="Ideation Team"
      subtitle="Research questions from your idea or from real publication trends, grounded in the literature."
      actions={run.state !== 'idle' ? <StatusChip status={STATUS[run.state]} /> : undefined}
      aside={aside}
    >
      {started ? (
        <IdeationWorkflow run={run} projectId={params.get('projectId')} />
      ) : (
        <Paper
          variant="outlined"
          sx={{ p: { xs: 3, md: 6 }, textAlign: 'center', color: 'text.secondary' }}
        >
          <Typography>Select a workflow and click "Start Workflow" to begin.</Typography>
        </Paper>
      )}
    </TeamScreenLayout>
  );
}
