import Chip, { type ChipProps } from '@mui/material/Chip';
import type { ProjectStatus } from '../../../../common/projects';
import { humanize } from './format';

/** One colour per project status, the same on every screen. */
export const PROJECT_STATUS_COLORS: Record<ProjectStatus, ChipProps['color']> = {
  planning: 'secondary',
  active: 'success',
  paused: 'warning',
  completed: 'primary',
  archived: 'default',
};

export function ProjectStatusChip({
  status,
  size = 'small',
}: {
  status: ProjectStatus;
  size?: ChipProps['size'];
}) {
  return (
    <Chip
      size={size}
      label={humanize(status)}
      color={PROJECT_STATUS_COLORS[status]}
      variant={status === 'archived' ? 'outlined' : 'filled'}
      data-testid="project-status"
    />
  );
}
