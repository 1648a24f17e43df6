import {
  modelDescriptionSchema,
  type ModelDescription,
  type ModelDescriptionInput,
  type ModelType,
} from '../../../../common/teams/model';
import { ModelError } from '../errors';
import { dsge } from './dsge';
import { environmental } from './environmental';
import { finance } from './finance';
import { io } from './io';
import { labor } from './labor';
import { nk } from './nk';
import { olg } from './olg';
import { rbc } from './rbc';
import { trade } from './trade';
import { urban } from './urban';

/**
 * The model library: one canonical, documented model for each model type a session can develop.
 * Its framework texts are the library's own text and are labelled so wherever they are shown.
 */
const LIBRARY: Record<ModelType, ModelDescriptionInput> = {
  DSGE: dsge,
  RBC: rbc,
  NK: nk,
  OLG: olg,
  IO: io,
  Trade: trade,
  Urban: urban,
  Labor: labor,
  Finance: finance,
  Environmental: environmental,
};

/** The canonical model of a type, validated and with defaults filled in (a fresh copy). */
export function canonicalModel(type: string): ModelDescription {
  const input = (LIBRARY as Record<string, ModelDescriptionInput | undefined>)[type];
  if (!input) {
    throw new ModelError(
      'invalid_input',
      `Unknown model type '${type}'; choose one of ${Object.keys(LIBRARY).join(', ')}`,
    );
  }
  return modelDescriptionSchema.parse(structuredClone(input));
}

export const LIBRARY_TYPES = Object.keys(LIBRARY) as ModelType[];
