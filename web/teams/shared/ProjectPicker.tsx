import { useEffect } from 'react';
import { Link as RouterLink } from 'react-router';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useSelectableProjects } from '../../api/queries/projects';
import { isOpenStatus, useTeamScope } from './teamScope';

const NO_PROJECT = '';

/**
 * The project a team screen's next start goes into: the projects the user may add to, and "No
 * project". It follows `?projectId=` both ways. While the shown session runs or waits, the
 * choice is fixed: the session stays in the project it started in.
 */
export function ProjectPicker() {
  const scope = useTeamScope();
  const projects = useSelectableProjects(scope !== undefined);
  // The session hook and the checkpoint learn which projects the user may edit (an editor of a
  // session's project answers its checkpoints).
  const setEditable = scope?.setEditableProjects;
  const data = projects.data;
  useEffect(() => {
    if (setEditable && data) setEditable(new Set(data.filter((p) => p.canEdit).map((p) => p.id)));
  }, [setEditable, data]);
  if (!scope) return null;
  const { projectId, shown } = scope;
  const list = projects.data ?? [];
  const chosen = projectId ? list.find((p) => p.id === projectId) : undefined;
  const locked = shown !== undefined && isOpenStatus(shown.status);
  const editable = list.filter((p) => p.canEdit);
  // The project in the address stays listed even if the user may only read it (a shared link).
  const options = chosen && !chosen.canEdit ? [chosen, ...editable] : editable;
  const unknown = projectId !== undefined && !projects.isPending && !chosen;

  const note = locked
    ? 'The session shown stays in the project it started in.'
    : unknown
      ? 'This project is not one of yours: choose a project or No project before you start.'
      : chosen && !chosen.canEdit
        ? 'You can read this project but not add to it: choose one of your projects or No project before you start.'
        : chosen
          ? 'What the team saves goes into this project.'
          : 'What the team saves stays in your own space.';

  return (
    <Stack
      direction={{ xs: 'column', sm: 'row' }}
      spacing={{ xs: 1, sm: 2 }}
      sx={{ mb: 2, alignItems: { sm: 'center' } }}
    >
      <TextField
        select
        size="small"
        label="Project"
        value={chosen || !projectId ? (projectId ?? NO_PROJECT) : NO_PROJECT}
        onChange={(e) => scope.setProjectId(e.target.value || undefined)}
        disabled={locked || projects.isPending}
        sx={{ minWidth: { sm: 260 }, maxWidth: { sm: 360 } }}
        slotProps={{ select: { MenuProps: { slotProps: { paper: { sx: { maxHeight: 360 } } } } } }}
      >
        <MenuItem value={NO_PROJECT}>No project</MenuItem>
        {options.map((p) => (
          <MenuItem key={p.id} value={p.id}>
            {p.canEdit ? p.title : `${p.title} (read only)`}
          </MenuItem>
        ))}
      </TextField>
      <Typography variant="body2" color="textSecondary" sx={{ flex: 1 }}>
        {note}{' '}
        {chosen && (
          <Link component={RouterLink} to={`/app/projects/${chosen.id}`} underline="always">
            Open the project
          </Link>
        )}
      </Typography>
    </Stack>
  );
}
