import { useEffect } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Grid from '@mui/material/Grid';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { CUSTOMIZED_WORKFLOW } from '../../../common/constants';
import type { CreateWorkflowRequest } from '../../../common/workflows';
import { useProject, useSelectableProjects } from '../../api/queries/projects';
import { useCreateWorkflow, useWorkflow, useWorkflowAction } from '../../api/queries/workflows';
import { LoadingSkeleton, PageHeader } from '../../components';
import { SectionCard } from '../../components/SectionCard';
import { useTeamManifests } from '../../teams/useTeamManifests';
import { ChainBuilder } from './customized-workflow/ChainBuilder';
import { PastWorkflows } from './customized-workflow/PastWorkflows';
import { WorkflowRunView } from './customized-workflow/WorkflowRunView';

const VIEWER_NOTE =
  "You can follow this project's workflows, but only its owner and editors can start one.";

/**
 * /app/customized-workflow: chain the registered teams into one run on a project. The project and
 * the workflow shown live in the address (?projectId=&workflowId=, replaced), so a reload or a
 * shared link shows the same run; a running workflow is read again every 2 s.
 */
export default function CustomizedWorkflowPage() {
  const [params, setParams] = useSearchParams();
  const projectId = params.get('projectId') || undefined;
  const workflowId = params.get('workflowId') || undefined;
  const teams = useTeamManifests();
  const projects = useSelectableProjects();
  const project = useProject(projectId);
  const workflow = useWorkflow(workflowId);
  const create = useCreateWorkflow();
  const start = useWorkflowAction('start');
  const cancel = useWorkflowAction('cancel');

  const update = (changes: Record<string, string | undefined>) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const [key, value] of Object.entries(changes)) {
          if (value) next.set(key, value);
          else next.delete(key);
        }
        return next;
      },
      { replace: true },
    );

  // A workflow opened by its link shows its own project.
  const shownProject = workflow.data?.projectId;
  useEffect(() => {
    if (shownProject && shownProject !== projectId) {
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          next.set('projectId', shownProject);
          return next;
        },
        { replace: true },
      );
    }
  }, [shownProject, projectId, setParams]);

  const canEdit = project.data?.canEdit ?? false;
  const list = projects.data ?? [];
  const editable = list.filter((p) => p.canEdit);
  const current = project.data;
  const options = current && !current.canEdit ? [current, ...editable] : editable;

  const onStart = async (request: CreateWorkflowRequest) => {
    start.reset();
    const created = await create.mutateAsync(request).catch(() => undefined);
    if (!created) return;
    update({ workflowId: created.id });
    await start.mutateAsync(created.id).catch(() => undefined);
  };

  const busy = create.isPending || start.isPending;
  const notFound =
    workflow.isError && [400, 404].includes((workflow.error as { status?: number }).status ?? 0);

  return (
    <>
      <PageHeader
        title={CUSTOMIZED_WORKFLOW.name}
        subtitle={
          <Stack
            component="span"
            direction="row"
            spacing={1}
            sx={{ alignItems: 'center', flexWrap: 'wrap' }}
          >
            <Chip label="Beta" size="small" color="secondary" component="span" />
            <span>
              Chain the teams into one run on a project; each step is an ordinary session.
            </span>
          </Stack>
        }
        actions={
          <Button component={RouterLink} to="/app/agent-workflow">
            All sessions
          </Button>
        }
      />
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, md: 4 }}>
          <Stack spacing={3}>
            <SectionCard title="Project" subtitle="A workflow runs on a project and saves into it">
              <TextField
                select
                fullWidth
                size="small"
                label="Project"
                value={options.some((p) => p.id === projectId) ? projectId : ''}
                onChange={(e) => update({ projectId: e.target.value, workflowId: undefined })}
                disabled={projects.isPending}
              >
                {options.length === 0 && (
                  <MenuItem value="" disabled>
                    No project yet
                  </MenuItem>
                )}
                {options.map((p) => (
                  <MenuItem key={p.id} value={p.id}>
                    {p.canEdit ? p.title : `${p.title} (read only)`}
                  </MenuItem>
                ))}
              </TextField>
              {projectId && current && (
                <Typography variant="body2" sx={{ mt: 1 }}>
                  <Link component={RouterLink} to={`/app/projects/${current.id}`}>
                    Open the project&apos;s record
                  </Link>
                </Typography>
              )}
              {!projects.isPending && list.length === 0 && (
                <Typography variant="body2" color="textSecondary" sx={{ mt: 1 }}>
                  Create a project in the{' '}
                  <Link component={RouterLink} to="/app/project-manager">
                    Project Manager
                  </Link>{' '}
                  first.
                </Typography>
              )}
            </SectionCard>
            <PastWorkflows
              projectId={projectId}
              selectedId={workflowId}
              onSelect={(id) => update({ workflowId: id })}
            />
          </Stack>
        </Grid>
        <Grid size={{ xs: 12, md: 8 }} sx={{ minWidth: 0 }}>
          {workflowId ? (
            workflow.isPending ? (
              <LoadingSkeleton count={3} label="Loading the workflow" />
            ) : workflow.isError ? (
              <Alert
                severity="error"
                action={
                  <Button
                    color="inherit"
                    size="small"
                    onClick={() => update({ workflowId: undefined })}
                  >
                    New workflow
                  </Button>
                }
              >
                {notFound
                  ? 'This workflow does not exist or you cannot see it.'
                  : `Could not load the workflow: ${workflow.error.message}`}
              </Alert>
            ) : (
              <WorkflowRunView
                workflow={workflow.data}
                teams={teams}
                canEdit={canEdit}
                cancelling={cancel.isPending}
                onCancel={() => cancel.mutate(workflow.data.id)}
                onNew={() => {
                  create.reset();
                  start.reset();
                  update({ workflowId: undefined });
                }}
                error={(start.error ?? cancel.error)?.message}
              />
            )
          ) : (
            <ChainBuilder
              teams={teams}
              projectId={projectId}
              cannotStart={projectId && project.data && !canEdit ? VIEWER_NOTE : undefined}
              busy={busy}
              error={create.error?.message}
              onStart={(request) => void onStart(request)}
            />
          )}
        </Grid>
      </Grid>
    </>
  );
}
