import { CODE_LANGUAGES } from '../../../../common/settings';
import { CODE_LANGUAGE_LABELS } from '../../../../common/teams/code';
import {
  ANALYSIS_TYPE_LABELS,
  ANALYSIS_TYPES,
  API_SOURCE_INFO,
  API_SOURCES,
} from '../../../../common/teams/data';
import { IDEATION_MODE_LABELS, IDEATION_MODES } from '../../../../common/teams/ideation';
import { TOP_N_MAX, TOP_N_MIN } from '../../../../common/teams/literature';
import { MODEL_TYPES } from '../../../../common/teams/model';

/**
 * The settings of a workflow step as a simple form: each team's main start fields (a step's
 * `config` is that team's start body; what it leaves out the workflow feeds from the earlier
 * steps). A team without a form here, or a field without one, is set in the step's JSON editor.
 */

export type StepConfig = Record<string, unknown>;

interface FieldBase {
  key: string;
  label: string;
  help?: string;
  /** Shown only when this holds for the step's config. */
  when?: (config: StepConfig) => boolean;
  /** The form refuses to start without it. */
  required?: boolean | ((config: StepConfig) => boolean);
}
export type StepField =
  | (FieldBase & { kind: 'text'; multiline?: boolean })
  | (FieldBase & { kind: 'select'; options: ReadonlyArray<{ value: string; label: string }> })
  /** An integer; `oneBased` shows index 0 as 1 (the config keeps the 0-based index). */
  | (FieldBase & { kind: 'number'; min?: number; max?: number; oneBased?: boolean });

const optionsOf = <T extends string>(values: readonly T[], label: (v: T) => string) =>
  values.map((value) => ({ value, label: label(value) }));

const STEP_FORMS: Record<string, { defaults: StepConfig; fields: StepField[] }> = {
  ideation: {
    defaults: { mode: 'human' },
    fields: [
      {
        kind: 'select',
        key: 'mode',
        label: 'Mode',
        options: optionsOf(IDEATION_MODES, (m) => IDEATION_MODE_LABELS[m]),
      },
      {
        kind: 'text',
        key: 'idea',
        label: 'Research area or idea',
        multiline: true,
        when: (c) => c.mode !== 'automatic',
        required: (c) => c.mode !== 'automatic',
      },
      {
        kind: 'number',
        key: 'questionIndex',
        label: 'Question the next steps work on',
        help: 'Its rank among the final questions (empty: the first).',
        min: 1,
        max: 10,
        oneBased: true,
      },
    ],
  },
  literature: {
    defaults: {},
    fields: [
      {
        kind: 'text',
        key: 'researchQuestion',
        label: 'Research question',
        multiline: true,
        help: 'Empty: the question chosen in an earlier Ideation step.',
      },
      {
        kind: 'number',
        key: 'topN',
        label: 'Number of works',
        min: TOP_N_MIN,
        max: TOP_N_MAX,
        help: `${TOP_N_MIN} to ${TOP_N_MAX} (empty: the team's default).`,
      },
      { kind: 'number', key: 'fromYear', label: 'From year', min: 1500, max: 2100 },
      { kind: 'number', key: 'toYear', label: 'To year', min: 1500, max: 2100 },
    ],
  },
  data: {
    defaults: { dataSource: 'api', apiSource: 'world_bank', analysisType: 'profile' },
    fields: [
      {
        kind: 'select',
        key: 'dataSource',
        label: 'Data source',
        options: [
          { value: 'api', label: 'Public API' },
          { value: 'url', label: 'URL' },
          { value: 'catalog', label: 'A dataset of the catalog (its id)' },
        ],
      },
      {
        kind: 'select',
        key: 'apiSource',
        label: 'API source',
        options: optionsOf(API_SOURCES, (s) => API_SOURCE_INFO[s].label),
        when: (c) => c.dataSource === 'api',
        required: (c) => c.dataSource === 'api',
      },
      {
        kind: 'text',
        key: 'datasetId',
        label: 'Dataset',
        help: 'The series or indicator id, the file address, or the catalog dataset id.',
        required: true,
      },
      {
        kind: 'select',
        key: 'analysisType',
        label: 'Analysis',
        options: optionsOf(ANALYSIS_TYPES, (t) => ANALYSIS_TYPE_LABELS[t]),
      },
    ],
  },
  model: {
    defaults: { modelType: 'NK' },
    fields: [
      {
        kind: 'select',
        key: 'modelType',
        label: 'Model type',
        options: optionsOf(MODEL_TYPES, (t) => t),
        required: true,
      },
      {
        kind: 'text',
        key: 'focus',
        label: 'Focus',
        multiline: true,
        help: 'Empty: the research question of an earlier step. Map dataset columns to model variables with targetColumns in the JSON editor.',
      },
    ],
  },
  code: {
    defaults: { language: 'python' },
    fields: [
      {
        kind: 'select',
        key: 'language',
        label: 'Language',
        options: optionsOf(CODE_LANGUAGES, (l) => CODE_LANGUAGE_LABELS[l]),
      },
      {
        kind: 'text',
        key: 'requirements',
        label: 'Requirements',
        multiline: true,
        help: "Empty: written from the earlier steps' question, model and data.",
      },
    ],
  },
};

/** The form fields of a team's step, or undefined for a team set in JSON only. */
export function stepFields(team: string): StepField[] | undefined {
  return STEP_FORMS[team]?.fields;
}

export function defaultStepConfig(team: string): StepConfig {
  return { ...(STEP_FORMS[team]?.defaults ?? {}) };
}

export function isShown(field: StepField, config: StepConfig): boolean {
  return field.when ? field.when(config) : true;
}

function isRequired(field: StepField, config: StepConfig): boolean {
  return typeof field.required === 'function' ? field.required(config) : field.required === true;
}

/** The text a field shows for the config's value ('' when unset). */
export function fieldText(field: StepField, config: StepConfig): string {
  const value = config[field.key];
  if (value === undefined || value === null) return '';
  if (field.kind === 'number' && typeof value === 'number') {
    return String(field.oneBased ? value + 1 : value);
  }
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

/**
 * The config with the field set from what the user typed: blank removes it (the workflow then
 * feeds it from earlier steps), a number field keeps only whole numbers.
 */
export function withField(config: StepConfig, field: StepField, text: string): StepConfig {
  const next = { ...config };
  const trimmed = field.kind === 'text' ? text : text.trim();
  if (trimmed.trim() === '') {
    delete next[field.key];
    return next;
  }
  if (field.kind === 'number') {
    const n = Number(trimmed);
    if (!Number.isInteger(n)) return config;
    next[field.key] = field.oneBased ? n - 1 : n;
    return next;
  }
  next[field.key] = trimmed;
  return next;
}

/** What keeps the step from starting, in words, or undefined. */
export function stepProblem(team: string, config: StepConfig): string | undefined {
  for (const field of stepFields(team) ?? []) {
    if (!isShown(field, config) || !isRequired(field, config)) continue;
    const value = config[field.key];
    if (value === undefined || (typeof value === 'string' && value.trim() === '')) {
      return `${field.label} is required`;
    }
  }
  return undefined;
}

/**
 * The config as sent: fields hidden by another field's value are left out (an API source once the
 * source is a URL), so the team does not refuse a field that no longer applies.
 */
export function configToSend(team: string, config: StepConfig): StepConfig {
  const fields = stepFields(team);
  if (!fields) return config;
  const next = { ...config };
  for (const field of fields) if (!isShown(field, config)) delete next[field.key];
  return next;
}

/** A JSON editor's text as a config, or the reason it is not one. */
export function parseStepJson(text: string): { config: StepConfig } | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { error: `Not valid JSON: ${(err as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { error: 'The settings must be a JSON object, e.g. {"researchQuestion": "..."}' };
  }
  return { config: value as StepConfig };
}

/** Moves the item at `from` by `by` places (-1 up, +1 down); the list unchanged at its ends. */
export function moved<T>(list: readonly T[], from: number, by: -1 | 1): T[] {
  const to = from + by;
  if (from < 0 || from >= list.length || to < 0 || to >= list.length) return [...list];
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item as T);
  return next;
}
