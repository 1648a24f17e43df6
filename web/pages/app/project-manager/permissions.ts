import type { Project } from '../../../../common/projects';

/** The server decides (owner or collaborator, and the account is not a viewer). */
export function canEditProject(project: Pick<Project, 'canEdit'>): boolean {
  return project.canEdit;
}

/** Only the owner deletes a project and manages its members. */
export function canDeleteProject(project: Pick<Project, 'canDelete'>): boolean {
  return project.canDelete;
}
