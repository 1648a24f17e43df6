import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import { SESSION_STATUS_LABELS } from '../../../../common/agents';
import { DATASET_SOURCE_LABELS } from '../../../../common/datasets';
import { DOCUMENT_CATEGORY_LABELS } from '../../../../common/documents';
import type { ProjectRecord } from '../../../../common/research-record';
import { useProjectRecord } from '../../../api/queries/projects';
import { ErrorAlert, LoadingSkeleton } from '../../../components';
import { SectionCard } from '../../../components/SectionCard';
import { CUSTOMIZED_WORKFLOW_PATH } from '../../../layouts/navigation';
import { STAGE_LABELS } from '../agent-workflow/workflowModel';
import { WorkflowStatusChip } from '../customized-workflow/WorkflowStatusChip';
import { formatDate, formatDateTime, formatNumber } from '../shared/format';

function Part({ title, count, children }: { title: string; count: number; children: ReactNode }) {
  return (
    <Box component="section" aria-label={title}>
      <Typography variant="subtitle1" component="h3" sx={{ mb: 0.5 }}>
        {title}{' '}
        <Typography component="span" color="textSecondary">
          ({count})
        </Typography>
      </Typography>
      {children}
    </Box>
  );
}

function None({ children }: { children: ReactNode }) {
  return (
    <Typography variant="body2" color="textSecondary">
      {children}
    </Typography>
  );
}

function StageAndProgress({ record }: { record: ProjectRecord }) {
  const reached = new Set(record.stagesReached);
  return (
    <Stack spacing={1}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <Typography variant="body2">Stage:</Typography>
        <Chip size="small" color="primary" label={STAGE_LABELS[record.workflowStage]} />
        <Typography variant="body2" color="textSecondary">
          {record.stagesReached.length} of {record.stagesCovered.length} stages reached
        </Typography>
      </Stack>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <LinearProgress
          variant="determinate"
          value={record.progress}
          sx={{ flexGrow: 1 }}
          aria-label="Research progress"
        />
        <Typography variant="body2">{Math.round(record.progress)}%</Typography>
      </Stack>
      <Stack
        component="ul"
        direction="row"
        spacing={1}
        sx={{ listStyle: 'none', p: 0, m: 0, flexWrap: 'wrap', rowGap: 1 }}
        aria-label="Research stages"
      >
        {record.stagesCovered.map((stage) => (
          <li key={stage}>
            <Chip
              size="small"
              variant={reached.has(stage) ? 'filled' : 'outlined'}
              color={reached.has(stage) ? 'success' : 'default'}
              icon={reached.has(stage) ? <CheckCircleOutlined /> : undefined}
              label={`${STAGE_LABELS[stage]}${reached.has(stage) ? ' (reached)' : ''}`}
            />
          </li>
        ))}
      </Stack>
      <Typography variant="caption" color="textSecondary">
        A stage is reached when a session of a team working in it completes on this project.
      </Typography>
    </Stack>
  );
}

/**
 * The project's research record in one place: the stage and progress the server computes, every
 * session of every team (team, status, who started it, when, a link that reopens it), the
 * workflows, documents, datasets and research questions.
 */
export function ResearchRecordSection({ projectId }: { projectId: string }) {
  const record = useProjectRecord(projectId);
  const workflowNames = new Map((record.data?.workflows ?? []).map((w) => [w.id, w.name]));
  return (
    <SectionCard title="Research record" subtitle="Everything the teams did on this project">
      {record.isPending ? (
        <LoadingSkeleton count={3} label="Loading the research record" />
      ) : record.isError ? (
        <ErrorAlert
          error={record.error}
          title="Could not load the research record"
          onRetry={() => void record.refetch()}
        />
      ) : (
        <Stack spacing={3}>
          <StageAndProgress record={record.data} />

          <Part title="Sessions" count={record.data.sessions.length}>
            {record.data.sessions.length === 0 ? (
              <None>No team has run on this project yet.</None>
            ) : (
              <List dense disablePadding aria-label="Sessions of this project">
                {record.data.sessions.map((s) => (
                  <ListItem key={s.sessionId} disableGutters>
                    <ListItemText
                      primary={
                        <Stack
                          component="span"
                          direction="row"
                          spacing={1}
                          sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}
                        >
                          <Link component={RouterLink} to={s.link} underline="hover">
                            {s.teamLabel}
                          </Link>
                          <Chip
                            size="small"
                            component="span"
                            label={s.paused ? 'Paused' : SESSION_STATUS_LABELS[s.status]}
                            color={
                              s.status === 'completed'
                                ? 'success'
                                : s.status === 'error'
                                  ? 'error'
                                  : s.status === 'waiting_for_input'
                                    ? 'warning'
                                    : 'default'
                            }
                          />
                        </Stack>
                      }
                      secondary={[
                        `Started by ${s.startedBy.name}`,
                        formatDateTime(s.startedAt ?? s.createdAt),
                        s.completedAt ? `finished ${formatDateTime(s.completedAt)}` : undefined,
                        s.workflowId
                          ? `in the workflow ${workflowNames.get(s.workflowId) ?? ''}`.trim()
                          : undefined,
                      ]
                        .filter(Boolean)
                        .join(' · ')}
                      slotProps={{ primary: { component: 'div' } }}
                    />
                  </ListItem>
                ))}
              </List>
            )}
          </Part>

          <Part title="Workflows" count={record.data.workflows.length}>
            {record.data.workflows.length === 0 ? (
              <None>No customized workflow has run on this project.</None>
            ) : (
              <List dense disablePadding aria-label="Workflows of this project">
                {record.data.workflows.map((w) => (
                  <ListItem key={w.id} disableGutters>
                    <ListItemText
                      primary={
                        <Stack
                          component="span"
                          direction="row"
                          spacing={1}
                          sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}
                        >
                          <Link
                            component={RouterLink}
                            to={`${CUSTOMIZED_WORKFLOW_PATH}?projectId=${encodeURIComponent(projectId)}&workflowId=${encodeURIComponent(w.id)}`}
                            underline="hover"
                          >
                            {w.name}
                          </Link>
                          <WorkflowStatusChip status={w.status} />
                        </Stack>
                      }
                      secondary={`${w.steps.length} ${w.steps.length === 1 ? 'step' : 'steps'} · ${formatDateTime(w.createdAt)}`}
                      slotProps={{ primary: { component: 'div' } }}
                    />
                  </ListItem>
                ))}
              </List>
            )}
          </Part>

          <Part title="Documents" count={record.data.documents.length}>
            {record.data.documents.length === 0 ? (
              <None>No document yet: the teams save their reports here.</None>
            ) : (
              <List dense disablePadding aria-label="Documents of this project">
                {record.data.documents.map((d) => (
                  <ListItem key={d.id} disableGutters>
                    <ListItemText
                      primary={
                        <Link
                          component={RouterLink}
                          to={`/app/documentation?doc=${encodeURIComponent(d.id)}`}
                          underline="hover"
                        >
                          {d.name}
                        </Link>
                      }
                      secondary={[
                        DOCUMENT_CATEGORY_LABELS[d.category],
                        d.format.toUpperCase(),
                        d.origin === 'session' ? 'saved by a team' : undefined,
                        formatDate(d.created),
                      ]
                        .filter(Boolean)
                        .join(' · ')}
                    />
                  </ListItem>
                ))}
              </List>
            )}
          </Part>

          <Part title="Datasets" count={record.data.datasets.length}>
            {record.data.datasets.length === 0 ? (
              <None>No dataset yet.</None>
            ) : (
              <List dense disablePadding aria-label="Datasets of this project">
                {record.data.datasets.map((d) => (
                  <ListItem key={d.id} disableGutters>
                    <ListItemText
                      primary={d.name}
                      secondary={[
                        DATASET_SOURCE_LABELS[d.source],
                        d.recordCount !== null ? `${formatNumber(d.recordCount)} rows` : undefined,
                      ]
                        .filter(Boolean)
                        .join(' · ')}
                    />
                  </ListItem>
                ))}
              </List>
            )}
          </Part>

          <Part title="Research questions" count={record.data.researchQuestions.length}>
            {record.data.researchQuestions.length === 0 ? (
              <None>No research question yet: the Ideation team saves its questions here.</None>
            ) : (
              <Box component="ol" sx={{ m: 0, pl: 2.5 }}>
                {record.data.researchQuestions.map((q, i) => (
                  <Typography key={i} component="li" variant="body2">
                    {q}
                  </Typography>
                ))}
              </Box>
            )}
          </Part>
        </Stack>
      )}
    </SectionCard>
  );
}
