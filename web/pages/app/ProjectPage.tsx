import { useState } from 'react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import DeleteOutlinedIcon from '@mui/icons-material/DeleteOutlined';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import SearchOffIcon from '@mui/icons-material/SearchOff';
import StarIcon from '@mui/icons-material/Star';
import StarBorderIcon from '@mui/icons-material/StarBorder';
import {
  ConfirmDialog,
  EmptyState,
  ErrorAlert,
  LoadingSkeleton,
  PageHeader,
} from '../../components';
import {
  useDeleteProject,
  useProject,
  useToggleFavorite,
  useUpdateProject,
} from '../../api/queries/projects';
import { DELETE_PROJECT_QUESTION } from './project-manager/deleteQuestion';
import { ProjectFormDialog } from './project-manager/ProjectFormDialog';
import { DetailsSection } from './project/DetailsSection';
import { MembersSection } from './project/MembersSection';
import { DatasetsSection } from './project/DatasetsSection';
import { ResearchRecordSection } from './project/ResearchRecordSection';
import { RunTeamSection } from './project/RunTeamSection';

/**
 * One project (/app/projects/:id): Run a team, its research record (stage and progress, every
 * session, workflow, document, dataset and research question), details, members and datasets.
 */
export default function ProjectPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const project = useProject(id);
  const update = useUpdateProject();
  const remove = useDeleteProject();
  const favorite = useToggleFavorite();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);

  if (project.isPending)
    return <LoadingSkeleton variant="page" count={5} label="Loading project" />;
  if (project.isError) {
    const notFound =
      (project.error as { status?: number }).status === 404 ||
      (project.error as { status?: number }).status === 400;
    return notFound ? (
      <EmptyState
        icon={<SearchOffIcon />}
        title="Project not found"
        message="This project does not exist or you do not have access to it."
        action={
          <Button variant="contained" component={RouterLink} to="/app/project-manager">
            Back to Project Manager
          </Button>
        }
      />
    ) : (
      <ErrorAlert
        title="Could not load the project"
        error={project.error}
        hint="Check your connection and try again."
        onRetry={() => void project.refetch()}
      />
    );
  }

  const p = project.data;
  const favoriteLabel = p.isFavorite ? 'Remove from favorites' : 'Add to favorites';
  return (
    <>
      <PageHeader
        title={p.title}
        subtitle={`${p.researchArea} · owned by ${p.ownerName}`}
        actions={
          <>
            <Button component={RouterLink} to="/app/project-manager" startIcon={<ArrowBackIcon />}>
              All projects
            </Button>
            <Tooltip title={favoriteLabel}>
              <IconButton
                aria-label={favoriteLabel}
                aria-pressed={p.isFavorite}
                onClick={() => favorite.mutate({ id: p.id, favorite: !p.isFavorite })}
                disabled={favorite.isPending}
                sx={{ color: p.isFavorite ? 'warning.main' : 'text.secondary' }}
              >
                {p.isFavorite ? <StarIcon /> : <StarBorderIcon />}
              </IconButton>
            </Tooltip>
            {p.canEdit && (
              <Button
                variant="outlined"
                startIcon={<EditOutlinedIcon />}
                onClick={() => setEditing(true)}
              >
                Edit
              </Button>
            )}
            {p.canDelete && (
              <Button
                color="error"
                variant="outlined"
                startIcon={<DeleteOutlinedIcon />}
                onClick={() => setDeleting(true)}
              >
                Delete
              </Button>
            )}
          </>
        }
      />
      {(favorite.isError || remove.isError) && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {(favorite.error ?? remove.error)?.message}
        </Alert>
      )}
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, lg: 8 }}>
          <Stack spacing={3}>
            <RunTeamSection project={p} />
            <ResearchRecordSection projectId={p.id} />
            <DetailsSection project={p} />
          </Stack>
        </Grid>
        <Grid size={{ xs: 12, lg: 4 }}>
          <Stack spacing={3}>
            <MembersSection project={p} />
            <DatasetsSection project={p} />
          </Stack>
        </Grid>
      </Grid>

      <ProjectFormDialog
        open={editing}
        project={p}
        busy={update.isPending}
        error={update.error?.message}
        onSubmit={(values) =>
          update.mutate({ id: p.id, changes: values }, { onSuccess: () => setEditing(false) })
        }
        onClose={() => {
          setEditing(false);
          update.reset();
        }}
      />
      <ConfirmDialog
        open={deleting}
        title="Delete project"
        message={DELETE_PROJECT_QUESTION}
        confirmLabel="Delete"
        destructive
        busy={remove.isPending}
        onConfirm={() =>
          remove.mutate(p.id, {
            onSuccess: () => void navigate('/app/project-manager', { replace: true }),
            onSettled: () => setDeleting(false),
          })
        }
        onCancel={() => setDeleting(false)}
      />
    </>
  );
}
