import { z } from 'zod';
import type { FeedbackEntry } from '../../../common/agents';
import type { WorkflowStage } from '../../../common/projects';
import type { ModelHandle } from '../llm/model-layer';
import type {
  AgentDefinition,
  PhaseDefinition,
  PhaseLog,
  PhaseRuntimeContext,
  SessionInfo,
  TeamAvailability,
  TeamDefinition,
  TeamRouteDeps,
  TeamWorkflowAdapter,
} from '../runtime/team';
import type { Api } from '../../platform/api';
import type { ServicesOf, ServiceSpecs } from '../../platform/services';
import { parseStored } from './stored-data';
import { createCitationGate, type CitationGate } from './citations';
import { createProvenanceRecorder, withModelRecorded, type PhaseProvenance } from './provenance';
import type { Workspace } from './workspace';

/**
 * The typed way to write a team (docs/architecture.md, "Adding a team"):
 *
 *   const team = defineTeam({ id, name, label, stage, description, input, results, services });
 *   const search = team.phase('search', { name, description, run: async (ctx) => ... });
 *   export default team.build({ phases: [question, search, report], routes });
 *
 * `results` names every phase's result schema up front, so a phase's return value is checked
 * against its own schema and `ctx.resultOf('search')` is typed in any later phase. Input,
 * configuration and earlier results reach a phase parsed by their schemas (they come back from
 * the database), so no phase casts anything.
 */

type ObjectSchema = z.ZodType<Record<string, unknown>>;
export type ResultSchemas = Record<string, z.ZodType>;

export interface TeamSpec<
  I extends ObjectSchema,
  C extends ObjectSchema,
  R extends ResultSchemas,
  S extends ServiceSpecs,
> {
  /** e.g. 'literature': the subscription type is `${id}-team`, the screen /app/${id}-team. */
  id: string;
  name: string;
  /** The team's name in lists (the status route, the dashboard), e.g. 'Literature Review'. */
  label: string;
  /** The research stage the team works in; a team outside the stages (a test team) has none. */
  stage?: WorkflowStage;
  description: string;
  input: I;
  /** Options of a run (defaults apply when left out). */
  configuration?: C;
  /** Each phase's result schema, by phase key. */
  results: R;
  /** Connectors and engines the phases and routes use, by the name they are reached under. */
  services?: S;
}

/** The results of a session so far, each parsed by its schema. */
export type ResultsOf<R extends ResultSchemas> = { [K in keyof R]?: z.output<R[K]> };

/** What a phase of this team receives. */
export interface PhaseContext<
  I extends ObjectSchema,
  C extends ObjectSchema,
  R extends ResultSchemas,
  S extends ServiceSpecs,
  K extends keyof R,
> {
  session: SessionInfo;
  input: z.output<I>;
  configuration: z.output<C>;
  phase: { number: number; key: string; name: string; totalPhases: number };
  log: PhaseLog;
  llm: ModelHandle;
  services: ServicesOf<S>;
  workspace: Workspace;
  /**
   * What this session retrieved, computed and read: recorded here, kept with the session and
   * carried by every document it saves (`workspace.documents.save({ ..., provenance })`).
   */
  provenance: PhaseProvenance;
  /** The citation gate over the works recorded in this session: pass every text through it. */
  citations: CitationGate;
  /** The result of an earlier phase of this run; throws if it has not run (not in the plan). */
  resultOf<P extends keyof R & string>(key: P): z.output<R[P]>;
  /** The same, or undefined when that phase is not part of this run. */
  optionalResultOf<P extends keyof R & string>(key: P): z.output<R[P]> | undefined;
  /** Keys of the phases finished so far in this run, in order. */
  completedPhases: string[];
  feedback: FeedbackEntry[];
  /** On a re-run after feedback at this phase's checkpoint: the feedback and the last result. */
  revision: { feedback: string; previousResult: z.output<R[K]> } | null;
  signal: AbortSignal;
}

export interface PhaseSpec<
  I extends ObjectSchema,
  C extends ObjectSchema,
  R extends ResultSchemas,
  S extends ServiceSpecs,
  K extends keyof R,
> {
  name: string;
  description: string;
  /** Ends at a human checkpoint; `data` picks what the checkpoint shows (default: the result). */
  checkpoint?: { title: string; data?: (result: z.output<R[K]>) => unknown };
  /** True when the phase cannot work without a language model: starting fails at once then. */
  requiresModel?: boolean;
  timeoutSeconds?: number;
  run(ctx: PhaseContext<I, C, R, S, K>): Promise<z.input<R[K]>>;
}

/** A phase built by `team.phase()`: the runtime's definition, tagged with its key. */
export type TeamPhase<K extends string> = PhaseDefinition & { key: K };

export interface TeamRouteKit<S extends ServiceSpecs> extends Omit<TeamRouteDeps, 'services'> {
  services: ServicesOf<S>;
}

export interface BuildSpec<R extends ResultSchemas, S extends ServiceSpecs> {
  /** The phases in order. */
  phases: Array<TeamPhase<keyof R & string>>;
  /** v2 agents; defaults to one agent `${id}-workflow` running every phase. */
  agents?: AgentDefinition[];
  /** The session's final outputs; defaults to the last phase's result. */
  finalOutputs?(results: ResultsOf<R>): unknown;
  /** Whether the team can run on this server (e.g. its engine is installed). */
  availability?(services: ServicesOf<S>): TeamAvailability;
  /** The page a notification links to; defaults to /app/${id}-team?session={id}. */
  link?(sessionId: string): string;
  /** The team's spec routes, registered under `prefix` as a Fastify plugin. */
  routes?: { prefix: string; register(app: Api, kit: TeamRouteKit<S>): Promise<void> | void };
  /** How the team runs as a workflow step (its workflow.ts, built with defineWorkflowAdapter). */
  workflow?: TeamWorkflowAdapter;
}

export interface TeamBuilder<
  I extends ObjectSchema,
  C extends ObjectSchema,
  R extends ResultSchemas,
  S extends ServiceSpecs,
> {
  readonly id: string;
  phase<K extends keyof R & string>(key: K, spec: PhaseSpec<I, C, R, S, K>): TeamPhase<K>;
  build(spec: BuildSpec<R, S>): TeamDefinition;
}

const emptyConfiguration = z.object({});

export function defineTeam<
  I extends ObjectSchema,
  R extends ResultSchemas,
  C extends ObjectSchema = typeof emptyConfiguration,
  S extends ServiceSpecs = Record<never, never>,
>(spec: TeamSpec<I, C, R, S>): TeamBuilder<I, C, R, S> {
  const configurationSchema: ObjectSchema = spec.configuration ?? emptyConfiguration;
  const services: ServiceSpecs = spec.services ?? {};

  function resultsOf(raw: Record<string, unknown>): ResultsOf<R> {
    const out: ResultsOf<R> = {};
    for (const key of Object.keys(spec.results) as Array<keyof R & string>) {
      if (raw[key] !== undefined) {
        out[key] = parseStored(spec.results[key]!, raw[key], `result of ${key}`);
      }
    }
    return out;
  }

  function typedContext<K extends keyof R & string>(
    rt: PhaseRuntimeContext,
    key: K,
  ): PhaseContext<I, C, R, S, K> {
    const optionalResultOf = <P extends keyof R & string>(p: P): z.output<R[P]> | undefined =>
      rt.results[p] === undefined
        ? undefined
        : parseStored(spec.results[p]!, rt.results[p], `result of ${p}`);
    // The runner hands its recorder over; a phase run without one (a harness) records in memory.
    const provenance =
      rt.provenance ??
      createProvenanceRecorder(undefined, { key, startedAt: new Date().toISOString() });
    return {
      session: rt.session,
      input: parseStored(spec.input, rt.input, 'input'),
      configuration: parseStored(
        spec.configuration ?? emptyConfiguration,
        rt.configuration,
        'configuration',
      ) as z.output<C>,
      phase: rt.phase,
      log: rt.log,
      llm: withModelRecorded(rt.llm, provenance),
      services: rt.services.instancesOf(services) as ServicesOf<S>,
      workspace: rt.workspace,
      provenance,
      citations: createCitationGate(provenance, rt.log),
      resultOf(p) {
        const value = optionalResultOf(p);
        if (value === undefined) {
          throw new Error(`Phase ${rt.phase.key} needs the result of ${p}, which has not run`);
        }
        return value;
      },
      optionalResultOf,
      completedPhases: rt.resultList.map((r) => r.key),
      feedback: rt.feedback,
      revision: rt.revision
        ? {
            feedback: rt.revision.feedback,
            previousResult: parseStored(
              spec.results[key]!,
              rt.revision.previousResult,
              `result of ${key}`,
            ),
          }
        : null,
      signal: rt.signal,
    };
  }

  return {
    id: spec.id,
    phase(key, phaseSpec) {
      const schema = spec.results[key];
      if (!schema) throw new Error(`Team ${spec.id}: phase ${key} has no result schema`);
      const checkpoint = phaseSpec.checkpoint;
      return {
        key,
        name: phaseSpec.name,
        description: phaseSpec.description,
        result: schema,
        requiresModel: phaseSpec.requiresModel ?? false,
        ...(phaseSpec.timeoutSeconds ? { timeoutSeconds: phaseSpec.timeoutSeconds } : {}),
        ...(checkpoint
          ? {
              checkpoint: {
                title: checkpoint.title,
                ...(checkpoint.data
                  ? {
                      data: (result: unknown) =>
                        checkpoint.data!(parseStored(schema, result, `result of ${key}`)),
                    }
                  : {}),
              },
            }
          : {}),
        run: (rt) => phaseSpec.run(typedContext(rt, key)),
      };
    },

    build(buildSpec) {
      const keys = new Set<string>();
      for (const p of buildSpec.phases) {
        if (keys.has(p.key)) throw new Error(`Team ${spec.id}: duplicate phase key ${p.key}`);
        keys.add(p.key);
      }
      // The phase table in common/teams/<team>.ts is the one order: the screen numbers phases
      // by it, so the built phases must follow it exactly.
      const tableOrder = Object.keys(spec.results);
      const builtOrder = buildSpec.phases.map((p) => p.key);
      if (tableOrder.join('/') !== builtOrder.join('/')) {
        throw new Error(
          `Team ${spec.id}: phases ${builtOrder.join(', ')} do not follow the phase table ` +
            `(${tableOrder.join(', ')})`,
        );
      }
      const agents = buildSpec.agents ?? [
        { id: `${spec.id}-workflow`, name: spec.name, description: spec.description },
      ];
      for (const a of agents) {
        for (const k of a.phases ?? []) {
          if (!keys.has(k))
            throw new Error(`Team ${spec.id}: agent ${a.id} names unknown phase ${k}`);
        }
      }
      const { finalOutputs, availability, routes } = buildSpec;
      return {
        id: spec.id,
        name: spec.name,
        label: spec.label,
        ...(spec.stage ? { stage: spec.stage } : {}),
        description: spec.description,
        inputSchema: spec.input,
        configurationSchema,
        phases: buildSpec.phases,
        agents,
        services,
        ...(finalOutputs ? { finalOutputs: (raw) => finalOutputs(resultsOf(raw)) } : {}),
        ...(availability
          ? { availability: (host) => availability(host.instancesOf(services) as ServicesOf<S>) }
          : {}),
        ...(buildSpec.link ? { link: buildSpec.link } : {}),
        ...(buildSpec.workflow ? { workflow: buildSpec.workflow } : {}),
        ...(routes
          ? {
              routes: {
                prefix: routes.prefix,
                register: (app, deps) =>
                  routes.register(app, {
                    ...deps,
                    services: deps.services.instancesOf(services) as ServicesOf<S>,
                  }),
              },
            }
          : {}),
      };
    },
  };
}
