/** Enums and business constants from the specification, shared by browser and server. */

export const USER_ROLES = ['admin', 'researcher', 'viewer'] as const;
export type UserRole = (typeof USER_ROLES)[number];

export const USER_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** platform.md §5: the waiting-list interest-area options. */
export const INTEREST_AREAS = [
  'Macroeconomics',
  'Microeconomics',
  'Econometrics',
  'Behavioral Economics',
  'Development Economics',
  'Financial Economics',
  'Labor Economics',
  'Environmental Economics',
  'Other',
] as const;
export type InterestArea = (typeof INTEREST_AREAS)[number];

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const DISPLAY_NAME_MAX = 100;
export const REASON_MAX = 2000;

/** platform.md §9 */
export const DEFAULT_VERSION = '0.0.1';
export const DEFAULT_VERSION_PREFIX = 'Demo Version';
export const DRAWER_WIDTH = 280;
export const TESTIMONIAL_ROTATION_MS = 5000;
export const FUN_FACT_ROTATION_MS = 5000;
export const THANK_YOU_MS = 3000;
export const SNACKBAR_MS = 4000;
export const SETTINGS_SAVED_MS = 3000;
export const RECENT_PROJECTS_SHOWN = 3;
export const RECENT_EVENTS_SHOWN = 10;
export const ACTIVE_WORKFLOWS_LISTED = 5;
export const CARD_DESCRIPTION_LENGTH = 150;

/** The product's contact address for mailto drafts (platform.md §7). */
export const CONTACT_EMAIL = 'contact@econagents.org';
export const MAIL_SUBJECTS = {
  joinTeam: 'Join Our Team - Interest',
  idea: 'Start With an Idea - Support Request',
  demo: 'Demo Request',
} as const;

/**
 * The agent teams (platform.md §1). Whether one is ready is never written down here: it comes from
 * the server (GET /api/agents/teams, /api/agents/status), where a registered, available team is
 * 'ready' and any other 'coming soon' (the customized workflow is 'in development').
 */
export const TEAMS = [
  { id: 'ideation', name: 'Ideation' },
  { id: 'literature', name: 'Literature Review' },
  { id: 'data', name: 'Data' },
  { id: 'model', name: 'Model' },
  { id: 'code', name: 'Code' },
  { id: 'customized', name: 'Customized Workflow' },
] as const;
export type TeamId = (typeof TEAMS)[number]['id'];
export type TeamMaturity = 'ready' | 'coming soon' | 'in development';

/** The maturity label a team shows, from whether this server runs it. */
export function teamMaturity(teamId: string, available: boolean): TeamMaturity {
  if (teamId === 'customized') return 'in development';
  return available ? 'ready' : 'coming soon';
}
