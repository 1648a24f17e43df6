import { lazy } from 'react';
import CodeOutlined from '@mui/icons-material/CodeOutlined';
import type { TeamManifest } from '../manifest';

export const codeManifest: TeamManifest = {
  id: 'code',
  route: 'code-team',
  label: 'Code',
  name: 'Code',
  stage: 'coding',
  icon: CodeOutlined,
  badge: 'New',
  description: 'Generate, review and test research code that runs.',
  Screen: lazy(() => import('./CodeTeamPage')),
};
