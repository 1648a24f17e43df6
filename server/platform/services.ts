import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { RawEnv } from '../config';
import { parseEnvFragment, type EnvFragment } from './env-fragments';

/**
 * A connector to the outside (server/sources) or a computation engine (server/engines) that a
 * team declares in its `services`. Each is built once per process from its own environment
 * variables (its fragment) and shared by every team that declares it: OpenAlex used by the
 * Literature and the Ideation team is one instance.
 */
export interface ServiceSpec<T, E extends EnvFragment = EnvFragment> {
  /** Unique across the server, e.g. 'openalex'; the instance is cached under it. */
  id: string;
  /** The variables it reads (e.g. OPENALEX_BASE_URL), each with `.describe()`. */
  env?: E;
  /** Builds the instance. Keep it cheap: open files or connections on first use. */
  create(deps: ServiceDeps<z.output<E>>): T;
  /** Releases what the instance holds (on shutdown). */
  close?(instance: T): Promise<void> | void;
}

/** What a service is built from. Never the database, the secrets or the token signer. */
export interface ServiceDeps<Env> {
  env: Env;
  /** A folder of its own under DATA_DIR (created on demand by the service, mode 0700). */
  dataDir: string;
  log: FastifyBaseLogger;
}

/** Declares a service; the identity function that fixes its types. */
export function defineService<T, E extends EnvFragment = EnvFragment>(
  spec: ServiceSpec<T, E>,
): ServiceSpec<T, E> {
  return spec;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any service spec, whatever its types
export type AnyServiceSpec = ServiceSpec<any, any>;
export type ServiceSpecs = Record<string, AnyServiceSpec>;

/** The instances a team's phases and routes get, typed from its `services`. */
export type ServicesOf<S extends ServiceSpecs> = {
  [K in keyof S]: S[K] extends ServiceSpec<infer T, infer _E> ? T : never;
};

/** Builds and caches the services of one process. */
export interface ServiceHost {
  /** The instances for a team's declared services (built on first request, then cached). */
  instancesOf<S extends ServiceSpecs>(specs: S): ServicesOf<S>;
  close(): Promise<void>;
}

export function createServiceHost(deps: {
  env: RawEnv;
  dataDir: string;
  log: FastifyBaseLogger;
}): ServiceHost {
  const built = new Map<string, { spec: AnyServiceSpec; instance: unknown }>();

  function instance(spec: AnyServiceSpec): unknown {
    const cached = built.get(spec.id);
    if (cached) {
      if (cached.spec !== spec) {
        throw new Error(`Two different services are declared with the id '${spec.id}'`);
      }
      return cached.instance;
    }
    const env: unknown = spec.env ? parseEnvFragment(spec.env, deps.env, spec.id) : {};
    const made: unknown = spec.create({
      env,
      dataDir: `${deps.dataDir}/services/${spec.id}`,
      log: deps.log.child({ service: spec.id }),
    });
    built.set(spec.id, { spec, instance: made });
    return made;
  }

  return {
    instancesOf<S extends ServiceSpecs>(specs: S): ServicesOf<S> {
      const out: Partial<Record<keyof S, unknown>> = {};
      for (const key of Object.keys(specs) as Array<keyof S>) out[key] = instance(specs[key]!);
      return out as ServicesOf<S>;
    },
    async close() {
      for (const { spec, instance: made } of built.values()) {
        try {
          await spec.close?.(made);
        } catch (err) {
          deps.log.warn({ err: (err as Error).message, service: spec.id }, 'service close failed');
        }
      }
      built.clear();
    },
  };
}
