import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import StarIcon from '@mui/icons-material/Star';
import StarBorderIcon from '@mui/icons-material/StarBorder';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import DeleteOutlinedIcon from '@mui/icons-material/DeleteOutlined';
import OpenInNewIcon from '@mui/icons-material/ArrowForward';
import type { Project } from '../../../../common/projects';
import { ProjectStatusChip } from '../shared/ProjectStatusChip';
import { formatDate, humanize, truncate } from '../shared/format';
import { canDeleteProject, canEditProject } from './permissions';

export interface ProjectCardProps {
  project: Project;
  onEdit: (project: Project) => void;
  onDelete: (project: Project) => void;
  onToggleFavorite: (project: Project) => void;
  favoriteBusy?: boolean;
}

/** One project in the Project Manager grid. */
export function ProjectCard({
  project,
  onEdit,
  onDelete,
  onToggleFavorite,
  favoriteBusy,
}: ProjectCardProps) {
  const favoriteLabel = project.isFavorite
    ? `Remove ${project.title} from favorites`
    : `Add ${project.title} to favorites`;
  return (
    <Card
      component="article"
      aria-label={project.title}
      data-testid="project-card"
      sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}
    >
      <CardContent sx={{ flexGrow: 1 }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
          <Box sx={{ flexGrow: 1, minWidth: 0 }}>
            <Typography
              variant="h6"
              component="h3"
              sx={{ fontSize: '1.05rem', lineHeight: 1.35, overflowWrap: 'anywhere' }}
            >
              {project.title}
            </Typography>
            <Typography variant="body2" color="textSecondary">
              {project.researchArea}
            </Typography>
          </Box>
          <Tooltip title={project.isFavorite ? 'Remove from favorites' : 'Add to favorites'}>
            <span>
              <IconButton
                aria-label={favoriteLabel}
                aria-pressed={project.isFavorite}
                onClick={() => onToggleFavorite(project)}
                disabled={favoriteBusy}
                size="small"
                sx={{ color: project.isFavorite ? 'warning.main' : 'text.secondary' }}
                data-testid="favorite-toggle"
              >
                {project.isFavorite ? <StarIcon /> : <StarBorderIcon />}
              </IconButton>
            </span>
          </Tooltip>
        </Stack>
        <Stack
          useFlexGap
          direction="row"
          spacing={1}
          sx={{ mt: 1, alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}
        >
          <ProjectStatusChip status={project.status} />
          <Typography variant="caption" color="textSecondary">
            Stage: {humanize(project.workflowStage)}
          </Typography>
        </Stack>
        {project.description && (
          <Typography
            variant="body2"
            sx={{ mt: 1.5, overflowWrap: 'anywhere' }}
            data-testid="project-description"
          >
            {truncate(project.description)}
          </Typography>
        )}
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mt: 2 }}>
          <Box sx={{ flexGrow: 1 }}>
            <LinearProgress
              variant="determinate"
              value={project.metrics.progress}
              aria-label={`${project.title} progress`}
            />
          </Box>
          <Typography variant="caption" color="textSecondary">
            {Math.round(project.metrics.progress)}%
          </Typography>
        </Stack>
        <Typography variant="caption" color="textSecondary" component="p" sx={{ mt: 1 }}>
          Created {formatDate(project.dateCreated)} · Updated {formatDate(project.dateUpdated)}
          {project.access !== 'owner' && ` · Owner: ${project.ownerName}`}
        </Typography>
      </CardContent>
      <CardActions sx={{ px: 2, pb: 2, pt: 0, flexWrap: 'wrap', gap: 0.5 }}>
        {canEditProject(project) && (
          <Button
            size="small"
            startIcon={<EditOutlinedIcon />}
            onClick={() => onEdit(project)}
            aria-label={`Edit ${project.title}`}
          >
            Edit
          </Button>
        )}
        {canDeleteProject(project) && (
          <Button
            size="small"
            color="error"
            startIcon={<DeleteOutlinedIcon />}
            onClick={() => onDelete(project)}
            aria-label={`Delete ${project.title}`}
          >
            Delete
          </Button>
        )}
        <Button
          size="small"
          variant="outlined"
          endIcon={<OpenInNewIcon />}
          component={RouterLink}
          to={`/app/projects/${project.id}`}
          aria-label={`Open ${project.title}`}
          sx={{ ml: 'auto !important' }}
        >
          Open
        </Button>
      </CardActions>
    </Card>
  );
}
