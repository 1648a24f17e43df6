import { describe, expect, it } from 'vitest';
import { TEAM_MANIFESTS } from '../teams';
import { breadcrumbsFor, initialsOf, isItemActive, navSections } from './navigation';

const NAV_SECTIONS = navSections(TEAM_MANIFESTS);
const crumbs = (pathname: string) => breadcrumbsFor(pathname, TEAM_MANIFESTS);

describe('navigation', () => {
  it('has the spec sections, items, badges and default expansion', () => {
    expect(NAV_SECTIONS.map((s) => [s.title, s.defaultOpen])).toEqual([
      ['Dashboard', true],
      ['Projects', true],
      ['AI Research Teams', true],
      ['Resources', false],
    ]);
    const teams = NAV_SECTIONS.find((s) => s.id === 'teams')!;
    expect(teams.items.map((i) => `${i.label}${i.badge ? ` [${i.badge}]` : ''}`)).toEqual([
      'Ideation',
      'Literature',
      'Data [New]',
      'Model [New]',
      'Code [New]',
      'Customized Workflow [Beta]',
    ]);
    // The Customized Workflow has its own screen; the sessions monitor sits under Dashboard.
    expect(teams.items.at(-1)!.to).toBe('/app/customized-workflow');
    expect(NAV_SECTIONS[0]!.items.map((i) => [i.label, i.to])).toEqual([
      ['Overview', '/app'],
      ['Agent Workflow', '/app/agent-workflow'],
    ]);
    expect(NAV_SECTIONS.at(-1)!.items.map((i) => i.label)).toEqual([
      'Data Explorer',
      'Documentation',
      'Settings',
    ]);
  });

  it('marks Project Manager active on a project page, Overview only on /app', () => {
    const pm = NAV_SECTIONS[1]!.items[0]!;
    const overview = NAV_SECTIONS[0]!.items[0]!;
    expect(isItemActive(pm, '/app/projects/abc')).toBe(true);
    expect(isItemActive(pm, '/app/project-manager/')).toBe(true);
    expect(isItemActive(overview, '/app')).toBe(true);
    expect(isItemActive(overview, '/app/settings')).toBe(false);
  });

  it('builds breadcrumbs with links except for the current page', () => {
    expect(crumbs('/app')).toEqual([{ label: 'Dashboard', to: '/app' }, { label: 'Overview' }]);
    expect(crumbs('/app/projects/42')).toEqual([
      { label: 'Dashboard', to: '/app' },
      { label: 'Projects', to: '/app/project-manager' },
      { label: 'Project' },
    ]);
    expect(crumbs('/admin')).toEqual([{ label: 'Administration' }]);
    expect(crumbs('/app/code-team')).toEqual([
      { label: 'Dashboard', to: '/app' },
      { label: 'Code Team' },
    ]);
  });

  it('takes up to two initials, and says User without a name', () => {
    expect(initialsOf('Ada Lovelace')).toBe('AL');
    expect(initialsOf('  john maynard keynes ')).toBe('JM');
    expect(initialsOf('Ostrom')).toBe('O');
    expect(initialsOf('émile durkheim')).toBe('ÉD');
    expect(initialsOf('')).toBe('User');
    expect(initialsOf('   ')).toBe('User');
    expect(initialsOf(undefined)).toBe('User');
  });
});
