import { useMemo } from 'react';
import { Link as RouterLink } from 'react-router';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Chip, { type ChipProps } from '@mui/material/Chip';
import Grid from '@mui/material/Grid';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AccountTreeOutlinedIcon from '@mui/icons-material/AccountTreeOutlined';
import type SvgIcon from '@mui/material/SvgIcon';
import type { TeamInfo } from '../../../../common/agents';
import { CUSTOMIZED_WORKFLOW, teamMaturity, type TeamMaturity } from '../../../../common/constants';
import { useAgentTeams } from '../../../api/queries/agents';
import { SectionCard } from '../../../components/SectionCard';
import { teamHref, type TeamManifest } from '../../../teams/manifest';
import { useTeamManifests } from '../../../teams/useTeamManifests';
import { CUSTOMIZED_WORKFLOW_PATH } from '../../../layouts/navigation';

/** What a card's chip says: the team's maturity, or that its steps wait for a model. */
type TeamLabel = TeamMaturity | 'needs a model';

const LABEL_COLORS: Record<TeamLabel, ChipProps['color']> = {
  ready: 'success',
  'needs a model': 'warning',
  'coming soon': 'default',
};

/**
 * A ready team whose steps call a language model 'needs a model' while none is configured for
 * this user (their own key or the server's); its steps that compute without one are counted.
 */
export function modelNeed(
  team: TeamInfo | undefined,
  llmConfigured: boolean,
): { modelSteps: number; computedSteps: number } | null {
  if (!team || !team.available || llmConfigured) return null;
  const modelSteps = team.phases.filter((p) => p.requiresModel).length;
  if (modelSteps === 0) return null;
  return { modelSteps, computedSteps: team.phases.length - modelSteps };
}

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
 * registers it and it can run here (GET /api/agents/teams), else 'coming soon'; a ready team
 * whose steps need a model says 'needs a model' (with a link to Settings) until one is set.
 */
export function TeamsLauncher() {
  const manifests = useTeamManifests();
  const entries = useMemo(() => entriesOf(manifests), [manifests]);
  const teams = useAgentTeams();
  const byId = new Map((teams.data?.teams ?? []).map((t) => [t.id, t]));
  const llmConfigured = teams.data?.llm.configured ?? true;
  return (
    <SectionCard
      fillHeight
      title="AI Research Teams"
      subtitle="Start a team of agents on your research"
    >
      <Grid container spacing={1.5}>
        {entries.map((team) => {
          const info = byId.get(team.id);
          const maturity = teamMaturity(team.id, info?.available === true);
          const need = modelNeed(info, llmConfigured);
          const label: TeamLabel = need ? 'needs a model' : maturity;
          const Icon = team.icon;
          return (
            <Grid key={team.id} size={{ xs: 12, sm: 6, lg: 4 }}>
              <Card sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}>
                <CardActionArea
                  component={RouterLink}
                  to={team.to}
                  sx={{ flexGrow: 1, alignItems: 'stretch' }}
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
                          label={label}
                          color={LABEL_COLORS[label]}
                          variant={label === 'ready' ? 'filled' : 'outlined'}
                        />
                      )}
                    </Stack>
                    <Typography variant="body2" color="textSecondary">
                      {team.blurb}
                    </Typography>
                  </CardContent>
                </CardActionArea>
                {need && (
                  <Typography variant="body2" sx={{ px: 2, pb: 1.5 }}>
                    {need.computedSteps > 0
                      ? `${need.modelSteps} of its ${need.modelSteps + need.computedSteps} steps need a language model; the others run without one. `
                      : 'Its steps need a language model. '}
                    <Link component={RouterLink} to="/app/settings?section=api-keys">
                      Set up a model in Settings
                    </Link>
                  </Typography>
                )}
              </Card>
            </Grid>
          );
        })}
      </Grid>
    </SectionCard>
  );
}
