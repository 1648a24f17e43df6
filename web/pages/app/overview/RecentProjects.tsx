import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import FolderOpenOutlinedIcon from '@mui/icons-material/FolderOpenOutlined';
import StarIcon from '@mui/icons-material/Star';
import type { DashboardProject } from '../../../../common/dashboard';
import { ProjectStatusChip } from '../shared/ProjectStatusChip';
import { formatDate, humanize } from '../shared/format';
import { SectionCard } from '../../../components/SectionCard';
import { EmptyState } from '../../../components';

/** The 3 most recently updated projects, each linking to its page. */
export function RecentProjects({ projects }: { projects: DashboardProject[] }) {
  return (
    <SectionCard
      fillHeight
      title="Recent Projects"
      subtitle="Most recently updated"
      action={
        <Button component={RouterLink} to="/app/project-manager" size="small">
          View all
        </Button>
      }
    >
      {projects.length === 0 ? (
        <EmptyState
          icon={<FolderOpenOutlinedIcon />}
          message="You have no projects yet. Create one to organise your research."
          action={
            <Button variant="contained" component={RouterLink} to="/app/project-manager?new=1">
              New Project
            </Button>
          }
        />
      ) : (
        <List disablePadding data-testid="recent-projects">
          {projects.map((project) => (
            <ListItem key={project.id} disableGutters divider sx={{ display: 'block', py: 1.25 }}>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
                {project.isFavorite && (
                  <StarIcon fontSize="small" color="warning" titleAccess="Favorite" />
                )}
                <Link
                  component={RouterLink}
                  to={`/app/projects/${project.id}`}
                  underline="hover"
                  sx={{ fontWeight: 600, flexGrow: 1, minWidth: 0, overflowWrap: 'anywhere' }}
                >
                  {project.title}
                </Link>
                <ProjectStatusChip status={project.status} />
              </Stack>
              <Typography variant="body2" color="textSecondary" sx={{ mt: 0.25 }}>
                {project.researchArea} · {humanize(project.workflowStage)} · updated{' '}
                {formatDate(project.dateUpdated)}
              </Typography>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mt: 0.75 }}>
                <Box sx={{ flexGrow: 1 }}>
                  <LinearProgress
                    variant="determinate"
                    value={project.progress}
                    aria-label={`${project.title} progress`}
                  />
                </Box>
                <Typography
                  variant="caption"
                  color="textSecondary"
                  sx={{ minWidth: 36, textAlign: 'right' }}
                >
                  {Math.round(project.progress)}%
                </Typography>
              </Stack>
            </ListItem>
          ))}
        </List>
      )}
    </SectionCard>
  );
}
