import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import AccountTreeOutlined from '@mui/icons-material/AccountTreeOutlined';
import { CUSTOMIZED_WORKFLOW } from '../../../../common/constants';
import type { Project } from '../../../../common/projects';
import { SectionCard } from '../../../components/SectionCard';
import { CUSTOMIZED_WORKFLOW_PATH } from '../../../layouts/navigation';
import { teamHref } from '../../../teams/manifest';
import { useTeamManifests } from '../../../teams/useTeamManifests';

/**
 * "Run a team": each team's screen opened with this project selected (?projectId=), so what the
 * session saves lands here; and a customized workflow on the project. Only its editors run teams.
 */
export function RunTeamSection({ project }: { project: Project }) {
  const manifests = useTeamManifests();
  const query = `?projectId=${encodeURIComponent(project.id)}`;
  return (
    <SectionCard title="Run a team" subtitle="Work that lands in this project's record">
      {project.canEdit ? (
        <Box
          sx={{
            display: 'grid',
            gap: 1,
            gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(3, 1fr)' },
          }}
        >
          {manifests.map((m) => {
            const Icon = m.icon;
            return (
              <Button
                key={m.id}
                component={RouterLink}
                to={`${teamHref(m)}${query}`}
                variant="outlined"
                startIcon={<Icon />}
                sx={{ justifyContent: 'flex-start' }}
              >
                Run {m.name}
              </Button>
            );
          })}
          <Button
            component={RouterLink}
            to={`${CUSTOMIZED_WORKFLOW_PATH}${query}`}
            variant="outlined"
            startIcon={<AccountTreeOutlined />}
            sx={{ justifyContent: 'flex-start' }}
          >
            Build a {CUSTOMIZED_WORKFLOW.name}
          </Button>
        </Box>
      ) : (
        <Typography variant="body2" color="textSecondary">
          You can read this project and follow its sessions; only its owner and editors run teams in
          it.
        </Typography>
      )}
    </SectionCard>
  );
}
