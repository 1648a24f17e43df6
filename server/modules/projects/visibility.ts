/** Who sees which projects: the rule is kept beside the tables (server/db/project-visibility.ts). */
export { memberProjectIds, memberProjectsCondition } from '../../db/project-visibility';

/** `%text%` for ILIKE with the pattern characters of the search text escaped. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
