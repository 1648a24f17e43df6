import { codeManifest } from './code/manifest';
import { dataManifest } from './data/manifest';
import { ideationManifest } from './ideation/manifest';
import { literatureManifest } from './literature/manifest';
import type { TeamManifest } from './manifest';
import { modelManifest } from './model/manifest';

/** The team screens, in navigation order: one line per team. */
export const TEAM_MANIFESTS: readonly TeamManifest[] = [
  ideationManifest,
  literatureManifest,
  dataManifest,
  modelManifest,
  codeManifest,
];
