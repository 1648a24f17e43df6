import Chip from '@mui/material/Chip';
import type { WorkflowStepStatus } from '../../../../common/workflows';

const LABELS: Record<WorkflowStepStatus, string> = {
  pending: 'Pending',
  idle: 'Not started',
  processing: 'Running',
  waiting_for_input: 'Waiting for input',
  completed: 'Completed',
  error: 'Error',
  cancelled: 'Cancelled',
};

// The theme's primary, not info: white on MUI's info blue is below the contrast AA asks for.
const COLORS: Record<WorkflowStepStatus, 'default' | 'primary' | 'warning' | 'success' | 'error'> =
  {
    pending: 'default',
    idle: 'default',
    processing: 'primary',
    waiting_for_input: 'warning',
    completed: 'success',
    error: 'error',
    cancelled: 'default',
  };

/**
 * A workflow's or a step's status. `live`: a polite live region, so a screen reader hears the
 * workflow move on (one per page).
 */
export function WorkflowStatusChip({
  status,
  live = false,
}: {
  status: WorkflowStepStatus;
  live?: boolean;
}) {
  return (
    <Chip
      size="small"
      label={LABELS[status]}
      color={COLORS[status]}
      variant={status === 'pending' || status === 'idle' ? 'outlined' : 'filled'}
      {...(live ? { role: 'status', 'aria-live': 'polite' as const } : {})}
    />
  );
}
