import type SvgIcon from '@mui/material/SvgIcon';
import { TEAM_MANIFESTS } from '../../teams';
import { teamHref } from '../../teams/manifest';
import DashboardOutlined from '@mui/icons-material/DashboardOutlined';
import FolderOutlined from '@mui/icons-material/FolderOutlined';
import AccountTreeOutlined from '@mui/icons-material/AccountTreeOutlined';
import TravelExploreOutlined from '@mui/icons-material/TravelExploreOutlined';
import DescriptionOutlined from '@mui/icons-material/DescriptionOutlined';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';

/** One icon per navigation target. */
export const NAV_ICONS: Record<string, typeof SvgIcon> = {
  '/app': DashboardOutlined,
  '/app/project-manager': FolderOutlined,
  ...Object.fromEntries(TEAM_MANIFESTS.map((m) => [teamHref(m), m.icon])),
  '/app/agent-workflow': AccountTreeOutlined,
  '/app/data-explorer': TravelExploreOutlined,
  '/app/documentation': DescriptionOutlined,
  '/app/settings': SettingsOutlined,
};
