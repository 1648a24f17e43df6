import { lazy } from 'react';
import LightbulbOutlined from '@mui/icons-material/LightbulbOutlined';
import type { TeamManifest } from '../manifest';

export const ideationManifest: TeamManifest = {
  id: 'ideation',
  route: 'ideation-team',
  label: 'Ideation',
  name: 'Ideation',
  stage: 'ideation',
  icon: LightbulbOutlined,
  description: 'Turn an idea, or real publication trends, into grounded research questions.',
  Screen: lazy(() => import('./IdeationTeamPage')),
};
