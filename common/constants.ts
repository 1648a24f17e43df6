/** Enums and business constants of the product, shared by browser and server. */

export const USER_ROLES = ['admin', 'researcher', 'viewer'] as const;
export type UserRole = (typeof USER_ROLES)[number];

export const USER_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** The waiting-list form's interest-area options. */
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

/** The version shown when /version.json cannot be read; drawer width, timings and list sizes. */
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

/** The product's contact address and the subjects of the mailto drafts the public pages open. */
export const CONTACT_EMAIL = 'contact@econagents.org';
export const MAIL_SUBJECTS = {
  joinTeam: 'Join Our Team - Interest',
  idea: 'Start With an Idea - Support Request',
  demo: 'Demo Request',
} as const;

/**
 * The customized workflow: listed beside the agent teams (status route, launcher, navigation) but
 * not a team of the runtime. The teams themselves are listed by their manifests only
 * (docs/architecture.md, "Adding a team").
 */
export const CUSTOMIZED_WORKFLOW = { id: 'customized', name: 'Customized Workflow' } as const;

/**
 * Whether a team is ready is never written down: it comes from the server (GET /api/agents/teams,
 * /api/agents/status), where a registered, available team is 'ready' and any other 'coming soon'.
 * The customized workflow runs on every server (its steps are the teams' sessions): 'ready'.
 */
export type TeamMaturity = 'ready' | 'coming soon';

/** The maturity label a team shows, from whether this server runs it. */
export function teamMaturity(teamId: string, available: boolean): TeamMaturity {
  if (teamId === CUSTOMIZED_WORKFLOW.id) return 'ready';
  return available ? 'ready' : 'coming soon';
}
