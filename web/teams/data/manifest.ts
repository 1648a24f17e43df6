import { lazy } from 'react';
import StorageOutlined from '@mui/icons-material/StorageOutlined';
import type { TeamManifest } from '../manifest';

export const dataManifest: TeamManifest = {
  id: 'data',
  route: 'data-team',
  label: 'Data',
  name: 'Data',
  stage: 'data',
  icon: StorageOutlined,
  badge: 'New',
  description: 'Fetch, profile and analyse economic data.',
  Screen: lazy(() => import('./DataTeamPage')),
};
