import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Project } from '../../../../common/projects';
import { ProjectStatusChip } from '../shared/ProjectStatusChip';
import { formatDateTime, humanize } from '../shared/format';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box component="div" sx={{ minWidth: 0 }}>
      <Typography variant="caption" color="textSecondary" component="dt" sx={{ fontWeight: 600 }}>
        {label}
      </Typography>
      <Typography variant="body2" component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
        {children}
      </Typography>
    </Box>
  );
}

function TextList({ label, items }: { label: string; items: string[] }) {
  if (items.length === 0) return null;
  return (
    <Box>
      <Typography variant="subtitle2" component="h3" sx={{ mb: 0.5 }}>
        {label}
      </Typography>
      <Box component="ol" sx={{ m: 0, pl: 3 }}>
        {items.map((item, i) => (
          <Typography
            key={i}
            component="li"
            variant="body2"
            sx={{ mb: 0.5, overflowWrap: 'anywhere' }}
          >
            {item}
          </Typography>
        ))}
      </Box>
    </Box>
  );
}

/** Every project field that has content. */
export function DetailsSection({ project }: { project: Project }) {
  const m = project.metrics;
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="project-details-heading"
      sx={{ p: { xs: 2, md: 3 } }}
    >
      <Typography id="project-details-heading" variant="h6" component="h2" sx={{ mb: 2 }}>
        Details
      </Typography>
      {project.description && (
        <Typography
          variant="body1"
          sx={{ mb: 2, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
        >
          {project.description}
        </Typography>
      )}
      <Box
        component="dl"
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(4, 1fr)' },
          gap: 2,
          m: 0,
          mb: 2,
        }}
      >
        <Field label="Status">
          <ProjectStatusChip status={project.status} />
        </Field>
        <Field label="Research area">{project.researchArea}</Field>
        <Field label="Owner">{project.ownerName}</Field>
        <Field label="Created">{formatDateTime(project.dateCreated)}</Field>
        <Field label="Updated">{formatDateTime(project.dateUpdated)}</Field>
        <Field label="Agent tasks">
          {m.agentTasksCompleted} of {m.agentTasksTotal} completed
        </Field>
        <Field label="Your access">{humanize(project.access)}</Field>
      </Box>
      <Stack spacing={2}>
        <TextList label="Research questions" items={project.researchQuestions} />
        <TextList label="Hypotheses" items={project.hypotheses} />
        {project.authors.length > 0 && (
          <Box>
            <Typography variant="subtitle2" component="h3" sx={{ mb: 0.5 }}>
              Authors
            </Typography>
            <Stack useFlexGap direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
              {project.authors.map((a) => (
                <Chip key={a} label={a} size="small" variant="outlined" />
              ))}
            </Stack>
          </Box>
        )}
        {project.collaborators.length > 0 && (
          <Box>
            <Typography variant="subtitle2" component="h3" sx={{ mb: 0.5 }}>
              Collaborators
            </Typography>
            <Box component="ul" sx={{ m: 0, pl: 3 }}>
              {project.collaborators.map((c) => (
                <Typography key={c.id} component="li" variant="body2">
                  {c.name}
                  {c.affiliation && ` (${c.affiliation})`}
                </Typography>
              ))}
            </Box>
          </Box>
        )}
        {project.models.length > 0 && (
          <Box>
            <Typography variant="subtitle2" component="h3" sx={{ mb: 0.5 }}>
              Models
            </Typography>
            <Box component="ul" sx={{ m: 0, pl: 3 }}>
              {project.models.map((model) => (
                <Typography key={model.id} component="li" variant="body2">
                  <strong>{model.name}</strong>
                  {model.type && ` · ${model.type}`}
                  {model.description && `: ${model.description}`}
                </Typography>
              ))}
            </Box>
          </Box>
        )}
        <TextList label="Publications" items={project.publications} />
        {project.agentConfigurations.length > 0 && (
          <Box>
            <Typography variant="subtitle2" component="h3" sx={{ mb: 0.5 }}>
              Agent configurations
            </Typography>
            <Box component="ul" sx={{ m: 0, pl: 3 }}>
              {project.agentConfigurations.map((c) => (
                <Typography
                  key={c.id}
                  component="li"
                  variant="body2"
                  sx={{ overflowWrap: 'anywhere' }}
                >
                  <strong>{c.agentType}</strong>
                  {Object.keys(c.configuration).length > 0 &&
                    `: ${JSON.stringify(c.configuration)}`}
                </Typography>
              ))}
            </Box>
          </Box>
        )}
      </Stack>
    </Paper>
  );
}
