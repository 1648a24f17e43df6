import { z } from 'zod';
import { envOptionalString } from '../../platform/env-fragments';
import { defineService } from '../../platform/services';
import { DEFAULT_LIMITS, DEFAULT_MAX_TIME_LIMIT_SECONDS } from './limits';
import { createSandbox, type Sandbox } from './sandbox';

/**
 * The sandbox as a service teams declare (the Code team; any team that runs code): one instance
 * per process, so its concurrency limit holds across every session and the execute route.
 */
export const sandboxService = defineService({
  id: 'sandbox',
  env: z.object({
    CODE_SANDBOX_MAX_SECONDS: z.coerce
      .number()
      .int()
      .min(5)
      .max(600)
      .default(DEFAULT_MAX_TIME_LIMIT_SECONDS)
      .describe(
        "Longest wall time one code execution may run, in seconds (a user's Terminal & Runtime " +
          'time limit is capped by it)',
      ),
    CODE_SANDBOX_CONCURRENCY: z.coerce
      .number()
      .int()
      .min(1)
      .max(64)
      .default(4)
      .describe('Code executions running at once in this process; more wait their turn'),
    CODE_SANDBOX_MEMORY_MB: z.coerce
      .number()
      .int()
      .min(256)
      .max(65_536)
      .default(DEFAULT_LIMITS.memoryMb)
      .describe(
        "Memory of one code execution, all its processes together, in MiB (also each process's " +
          'address space)',
      ),
    CODE_SANDBOX_BWRAP: envOptionalString.describe(
      'Path of the bubblewrap executable (default /usr/bin/bwrap); without bubblewrap no code runs',
    ),
  }),
  create: ({ env }): Sandbox =>
    createSandbox({
      maxTimeLimitSeconds: env.CODE_SANDBOX_MAX_SECONDS,
      maxConcurrent: env.CODE_SANDBOX_CONCURRENCY,
      limits: { memoryMb: env.CODE_SANDBOX_MEMORY_MB },
      ...(env.CODE_SANDBOX_BWRAP ? { bwrapPath: env.CODE_SANDBOX_BWRAP } : {}),
    }),
});
