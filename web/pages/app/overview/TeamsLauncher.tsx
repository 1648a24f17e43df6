import { useMemo } from 'react';
import { Link as RouterLink } from 'react-router';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Chip, { type ChipProps } from '@mui/material/Chip';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AccountTreeOutlinedIcon from '@mui/icons-material/AccountTreeOutlined';
import type SvgIcon from '@mui/material/SvgIcon';
import { CUSTOMIZED_WORKFLOW, teamMaturity, type TeamMaturity } from '../../../../common/constants';
import { useAgentTeams } from '../../../api/queries/agents';
import { SectionCard } from '../../../components/SectionCard';
import { teamHref, type TeamManifest } from '../../../teams/manifest';
import { useTeamManifests } from '../../../teams/useTeamManifests';
import { CUSTOMIZED_WORKFLOW_PATH } from '../../../layouts/navigation';

const MATURITY_COLORS: Record<TeamMaturity, ChipProps['color']> = {
  ready: 'success',
  'coming soon': 'default',
  'in development': 'warning',
};

interface LauncherEntry {
  id: string;
  name: string;
  to: string;
  icon: typeof SvgIcon;
  blurb: string;
}

const entriesOf = (manifests: readonly TeamManifest[]): LauncherEntry[] => [
  ...manifests.map((m) => ({
    id: m.id,
    name: m.name,
    to: teamHref(m),
    icon: m.icon,
    blurb: m.description,
  })),
  {
    id: CUSTOMIZED_WORKFLOW.id,
    name: CUSTOMIZED_WORKFLOW.name,
    to: CUSTOMIZED_WORKFLOW_PATH,
    icon: AccountTreeOutlinedIcon,
    blurb: 'Chain teams into your own research workflow.',
  },
];

/**
 * The AI Research Teams launcher: one card per team manifest. A team is 'ready' when this server
 * registers it and it can run here (GET /api/agents/teams), else 'coming soon'.
 */
export function TeamsLauncher() {
  const manifests = useTeamManifests();
  const entries = useMemo(() => entriesOf(manifests), [manifests]);
  const teams = useAgentTeams();
  const available = new Set((teams.data?.teams ?? []).filter((t) => t.available).map((t) => t.id));
  return (
    <SectionCard
      fillHeight
      title="AI Research Teams"
      subtitle="Start a team of agents on your research"
    >
      <Grid container spacing={1.5}>
        {entries.map((team) => {
          const maturity = teamMaturity(team.id, available.has(team.id));
          const Icon = team.icon;
          return (
            <Grid key={team.id} size={{ xs: 12, sm: 6, lg: 4 }}>
              <Card sx={{ height: '100%' }}>
                <CardActionArea
                  component={RouterLink}
                  to={team.to}
                  sx={{ height: '100%', alignItems: 'stretch' }}
                >
                  <CardContent>
                    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
                      <Stack aria-hidden sx={{ color: 'primary.main' }}>
                        <Icon />
                      </Stack>
                      <Typography
                        variant="subtitle1"
                        component="h3"
                        sx={{ fontWeight: 600, flexGrow: 1 }}
                      >
                        {team.name}
                      </Typography>
                      {teams.isSuccess && (
                        <Chip
                          size="small"
                          label={maturity}
                          color={MATURITY_COLORS[maturity]}
                          variant={maturity === 'ready' ? 'filled' : 'outlined'}
                        />
                      )}
                    </Stack>
                    <Typography variant="body2" color="text.secondary">
                      {team.blurb}
                    </Typography>
                  </CardContent>
                </CardActionArea>
              </Card>
            </Grid>
          );
        })}
      </Grid>
    </SectionCard>
  );
}
