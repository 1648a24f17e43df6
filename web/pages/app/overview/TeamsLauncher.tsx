import { Link as RouterLink } from 'react-router';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Chip, { type ChipProps } from '@mui/material/Chip';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import LightbulbOutlinedIcon from '@mui/icons-material/LightbulbOutlined';
import MenuBookOutlinedIcon from '@mui/icons-material/MenuBookOutlined';
import TableChartOutlinedIcon from '@mui/icons-material/TableChartOutlined';
import FunctionsOutlinedIcon from '@mui/icons-material/FunctionsOutlined';
import CodeOutlinedIcon from '@mui/icons-material/CodeOutlined';
import AccountTreeOutlinedIcon from '@mui/icons-material/AccountTreeOutlined';
import type { ReactNode } from 'react';
import { TEAMS, type TeamId } from '../../../../common/constants';
import { teamPath } from '../shared/teams';
import { SectionCard } from '../../../components/SectionCard';

const TEAM_DETAILS: Record<TeamId, { icon: ReactNode; blurb: string }> = {
  ideation: {
    icon: <LightbulbOutlinedIcon />,
    blurb: 'Turn a topic into research questions, hypotheses and a plan.',
  },
  literature: {
    icon: <MenuBookOutlinedIcon />,
    blurb: 'Search the literature, map gaps and trends, draft a review.',
  },
  data: { icon: <TableChartOutlinedIcon />, blurb: 'Fetch, profile and clean economic data.' },
  model: { icon: <FunctionsOutlinedIcon />, blurb: 'Build, calibrate and solve economic models.' },
  code: { icon: <CodeOutlinedIcon />, blurb: 'Generate and run reproducible analysis code.' },
  customized: {
    icon: <AccountTreeOutlinedIcon />,
    blurb: 'Chain teams into your own research workflow.',
  },
};

const MATURITY_COLORS: Record<string, ChipProps['color']> = {
  ready: 'success',
  'coming soon': 'default',
  'in development': 'warning',
};

/** The AI Research Teams launcher: one card per team with its maturity label (common TEAMS). */
export function TeamsLauncher() {
  return (
    <SectionCard
      fillHeight
      title="AI Research Teams"
      subtitle="Start a team of agents on your research"
    >
      <Grid container spacing={1.5}>
        {TEAMS.map((team) => {
          const details = TEAM_DETAILS[team.id];
          return (
            <Grid key={team.id} size={{ xs: 12, sm: 6, lg: 4 }}>
              <Card sx={{ height: '100%' }}>
                <CardActionArea
                  component={RouterLink}
                  to={teamPath(team.id)}
                  sx={{ height: '100%', alignItems: 'stretch' }}
                >
                  <CardContent>
                    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
                      <Stack aria-hidden sx={{ color: 'primary.main' }}>
                        {details.icon}
                      </Stack>
                      <Typography
                        variant="subtitle1"
                        component="h3"
                        sx={{ fontWeight: 600, flexGrow: 1 }}
                      >
                        {team.name}
                      </Typography>
                      <Chip
                        size="small"
                        label={team.maturity}
                        color={MATURITY_COLORS[team.maturity]}
                        variant={team.maturity === 'ready' ? 'filled' : 'outlined'}
                      />
                    </Stack>
                    <Typography variant="body2" color="text.secondary">
                      {details.blurb}
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
