import { z } from 'zod';
import { defineService } from '../../../server/agents/kit';

/**
 * An example service with its own environment variable (a config fragment). Real ones live in
 * server/sources/ (connectors) or server/engines/ (computation) and are declared by the teams
 * that use them.
 */
export const greeterService = defineService({
  id: 'example-greeter',
  env: z.object({
    EXAMPLE_GREETING: z
      .string()
      .min(1)
      .max(40)
      .default('Hello')
      .describe('Greeting the example team puts before its count (tests only)'),
  }),
  create: ({ env }) => ({
    greet: (who: string) => `${env.EXAMPLE_GREETING}, ${who}`,
  }),
});
