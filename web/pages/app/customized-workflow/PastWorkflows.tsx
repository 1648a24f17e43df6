import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useProjectWorkflows } from '../../../api/queries/workflows';
import { LoadingSkeleton } from '../../../components';
import { SectionCard } from '../../../components/SectionCard';
import { formatDateTime } from '../shared/format';
import { WorkflowStatusChip } from './WorkflowStatusChip';

/** The project's workflows, newest first; choosing one opens its run view. */
export function PastWorkflows({
  projectId,
  selectedId,
  onSelect,
}: {
  projectId: string | undefined;
  selectedId: string | undefined;
  onSelect(id: string): void;
}) {
  const workflows = useProjectWorkflows(projectId);
  const list = workflows.data?.workflows ?? [];
  return (
    <SectionCard title="Workflows of the project" subtitle="Open one to follow it">
      {!projectId ? (
        <Typography variant="body2" color="textSecondary">
          Choose a project to see its workflows.
        </Typography>
      ) : workflows.isPending ? (
        <LoadingSkeleton count={1} label="Loading workflows" />
      ) : workflows.isError ? (
        <Typography variant="body2" color="textSecondary">
          The workflows cannot be listed right now ({workflows.error.message}).
        </Typography>
      ) : list.length === 0 ? (
        <Typography variant="body2" color="textSecondary">
          No workflow has run on this project yet.
        </Typography>
      ) : (
        <List dense disablePadding aria-label="Workflows of the project">
          {list.map((w) => (
            <ListItem key={w.id} disablePadding>
              <ListItemButton
                selected={w.id === selectedId}
                onClick={() => onSelect(w.id)}
                sx={{ borderRadius: 1 }}
              >
                <ListItemText
                  primary={w.name}
                  secondary={
                    <Stack
                      component="span"
                      direction="row"
                      spacing={1}
                      sx={{ alignItems: 'center', mt: 0.5 }}
                    >
                      <WorkflowStatusChip status={w.status} />
                      <span>
                        {w.steps.length} {w.steps.length === 1 ? 'step' : 'steps'} ·{' '}
                        {formatDateTime(w.createdAt)}
                      </span>
                    </Stack>
                  }
                  slotProps={{ secondary: { component: 'span' } }}
                />
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      )}
    </SectionCard>
  );
}
