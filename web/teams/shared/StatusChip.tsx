import Chip, { type ChipProps } from '@mui/material/Chip';
import CheckCircleOutline from '@mui/icons-material/CheckCircleOutlineOutlined';
import ErrorOutline from '@mui/icons-material/ErrorOutlineOutlined';
import HourglassEmpty from '@mui/icons-material/HourglassEmpty';
import PauseCircleOutline from '@mui/icons-material/PauseCircleOutlineOutlined';
import RateReviewOutlined from '@mui/icons-material/RateReviewOutlined';
import Sync from '@mui/icons-material/Sync';
import { SESSION_STATUS_LABELS, type SessionStatus } from '../../../common/agents';
import { chipToneSx, type ChipTone } from './chipTones';

const TONES: Record<SessionStatus, ChipTone> = {
  idle: 'neutral',
  processing: 'info',
  waiting_for_input: 'warning',
  completed: 'success',
  error: 'error',
};

const ICONS: Record<SessionStatus, ChipProps['icon']> = {
  idle: <HourglassEmpty />,
  processing: <Sync />,
  waiting_for_input: <RateReviewOutlined />,
  completed: <CheckCircleOutline />,
  error: <ErrorOutline />,
};

export interface StatusChipProps {
  status: SessionStatus;
  /** A session paused by agent-control is idle; the chip says Paused then. */
  paused?: boolean;
  size?: ChipProps['size'];
  /** Announce changes to screen readers (on for the one chip that follows the live session). */
  live?: boolean;
}

/**
 * A session's status: Idle, Processing, Waiting for Input, Completed, Error.
 * With `live` the chip is a polite live region, so a change is read out once.
 */
export function StatusChip({
  status,
  paused = false,
  size = 'small',
  live = true,
}: StatusChipProps) {
  const label = paused && status === 'idle' ? 'Paused' : SESSION_STATUS_LABELS[status];
  return (
    <Chip
      {...(live ? { role: 'status', 'aria-live': 'polite' as const } : {})}
      aria-label={`Status: ${label}`}
      data-status={status}
      label={label}
      icon={paused && status === 'idle' ? <PauseCircleOutline /> : ICONS[status]}
      size={size}
      variant={status === 'idle' ? 'outlined' : 'filled'}
      sx={chipToneSx(TONES[status])}
    />
  );
}
