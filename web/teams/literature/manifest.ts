import { lazy } from 'react';
import MenuBookOutlined from '@mui/icons-material/MenuBookOutlined';
import type { TeamManifest } from '../manifest';

export const literatureManifest: TeamManifest = {
  id: 'literature',
  route: 'literature-team',
  label: 'Literature',
  name: 'Literature Review',
  stage: 'literature',
  icon: MenuBookOutlined,
  description: 'Search the literature, map gaps and trends, and draft a verified review.',
  Screen: lazy(() => import('./LiteratureTeamPage')),
};
