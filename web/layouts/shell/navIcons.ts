import type SvgIcon from '@mui/material/SvgIcon';
import DashboardOutlined from '@mui/icons-material/DashboardOutlined';
import FolderOutlined from '@mui/icons-material/FolderOutlined';
import LightbulbOutlined from '@mui/icons-material/LightbulbOutlined';
import MenuBookOutlined from '@mui/icons-material/MenuBookOutlined';
import StorageOutlined from '@mui/icons-material/StorageOutlined';
import FunctionsOutlined from '@mui/icons-material/FunctionsOutlined';
import CodeOutlined from '@mui/icons-material/CodeOutlined';
import AccountTreeOutlined from '@mui/icons-material/AccountTreeOutlined';
import TravelExploreOutlined from '@mui/icons-material/TravelExploreOutlined';
import DescriptionOutlined from '@mui/icons-material/DescriptionOutlined';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';

/** One icon per navigation target. */
export const NAV_ICONS: Record<string, typeof SvgIcon> = {
  '/app': DashboardOutlined,
  '/app/project-manager': FolderOutlined,
  '/app/ideation-team': LightbulbOutlined,
  '/app/literature-team': MenuBookOutlined,
  '/app/data-team': StorageOutlined,
  '/app/model-team': FunctionsOutlined,
  '/app/code-team': CodeOutlined,
  '/app/agent-workflow': AccountTreeOutlined,
  '/app/data-explorer': TravelExploreOutlined,
  '/app/documentation': DescriptionOutlined,
  '/app/settings': SettingsOutlined,
};
