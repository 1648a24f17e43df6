import { lazy } from 'react';
import FunctionsOutlined from '@mui/icons-material/FunctionsOutlined';
import type { TeamManifest } from '../manifest';

export const modelManifest: TeamManifest = {
  id: 'model',
  route: 'model-team',
  label: 'Model',
  name: 'Model',
  stage: 'modeling',
  icon: FunctionsOutlined,
  badge: 'New',
  description: 'Build, solve and calibrate economic models.',
  Screen: lazy(() => import('./ModelTeamPage')),
};
