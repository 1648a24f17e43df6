import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { SessionStatus } from '../../../../common/agents';
import { chipToneSx, type ChipTone } from '../../../teams/shared/chipTones';
import { StatusChip } from '../../../teams/shared/StatusChip';
import type { AgentActivity, StageStatus } from './workflowModel';
import { progressPercent } from './workflowModel';

/** A session's status chip in lists (not a live region: only the selected session's is). */
export function SessionStatusChip({ status, paused }: { status: SessionStatus; paused: boolean }) {
  return <StatusChip status={status} paused={paused} live={false} />;
}

const ACTIVITY: Record<AgentActivity, { label: string; tone: ChipTone }> = {
  active: { label: 'Active', tone: 'success' },
  standby: { label: 'Standby', tone: 'warning' },
  inactive: { label: 'Inactive', tone: 'neutral' },
};

export function ActivityChip({ activity }: { activity: AgentActivity }) {
  const a = ACTIVITY[activity];
  return (
    <Chip
      size="small"
      label={a.label}
      variant={activity === 'inactive' ? 'outlined' : 'filled'}
      sx={chipToneSx(a.tone)}
    />
  );
}

const STAGE: Record<StageStatus, { label: string; tone: ChipTone }> = {
  completed: { label: 'Completed', tone: 'success' },
  in_progress: { label: 'In progress', tone: 'info' },
  pending: { label: 'Pending', tone: 'neutral' },
};

export function StageStatusChip({ status }: { status: StageStatus }) {
  const s = STAGE[status];
  return (
    <Chip
      size="small"
      label={s.label}
      variant={status === 'pending' ? 'outlined' : 'filled'}
      sx={chipToneSx(s.tone)}
    />
  );
}

/** A session's progress bar with 'phase n of m' beside it. */
export function PhaseProgress({
  status,
  phase,
  totalPhases,
  label,
}: {
  status: SessionStatus;
  phase: number;
  totalPhases: number;
  /** Accessible name, e.g. 'Progress of the Literature Review session'. */
  label: string;
}) {
  const value = progressPercent({ status, phase, totalPhases });
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 120 }}>
      <LinearProgress
        variant="determinate"
        value={value}
        aria-label={label}
        aria-valuetext={`${value}%, phase ${Math.max(phase, 0)} of ${totalPhases}`}
        sx={{ flex: 1, height: 6, borderRadius: 3 }}
        color={status === 'error' ? 'error' : status === 'completed' ? 'success' : 'primary'}
      />
      <Typography variant="caption" color="textSecondary" sx={{ whiteSpace: 'nowrap' }}>
        {Math.max(phase, 0)}/{totalPhases}
      </Typography>
    </Stack>
  );
}
