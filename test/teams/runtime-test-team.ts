import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { TEST_TEAM_ID } from '../../common/agents';
import { defineTeam } from '../../server/agents/kit';

/**
 * The agent runtime's internal test team (registered only by the tests: createTestApp({}, { extraTeams }) and test/teams/serve-with-test-team.ts). Its phases
 * do small, deterministic work on the input so that tests can check what each phase saw: the
 * earlier results, every piece of feedback, the revision it re-ran for. The configuration makes
 * a phase slow, hang, fail, return an invalid result or call the model.
 */

export const testInputSchema = z.object({
  topic: z.string().trim().min(1, 'topic is required').max(200, 'topic is too long'),
});
export type TestInput = z.infer<typeof testInputSchema>;

export const testConfigSchema = z
  .object({
    /** Each phase waits this long (abortable). */
    delayMs: z.number().int().min(0).max(600_000).optional(),
    /** This phase throws. */
    failAt: z.string().optional(),
    /**
     * This phase's first run in a session fails as a query does when PostgreSQL ends the
     * connection (node-postgres' error inside Drizzle's), after writing a log line.
     */
    databaseDownAt: z.string().optional(),
    /** This phase returns a result its schema refuses. */
    invalidAt: z.string().optional(),
    /** This phase waits until it is aborted. */
    hangAt: z.string().optional(),
    /** With hangAt: the phase ignores its abort signal (the runtime must stop waiting anyway). */
    ignoreAbort: z.boolean().optional(),
    /** The draft phase asks the model (scripted server in tests). */
    useModel: z.boolean().optional(),
    /** The analyse phase (no checkpoint) also asks the model once (runtime-overhead bench). */
    modelInAnalyse: z.boolean().optional(),
    /** Model calls the draft phase makes (token budget tests). */
    modelCalls: z.number().int().min(1).max(20).optional(),
    /** The collect phase writes this many more log lines, one after another (order tests). */
    logLines: z.number().int().min(0).max(1000).optional(),
    /** The collect result carries this many extra bytes (large updates, slow-client tests). */
    padBytes: z.number().int().min(0).max(4_000_000).optional(),
  })
  .strict();
export type TestConfig = z.infer<typeof testConfigSchema>;

/** Sessions whose databaseDownAt phase has already failed once. */
const databaseDownSeen = new Set<string>();

async function common(
  key: string,
  ctx: {
    configuration: TestConfig;
    signal: AbortSignal;
    session: { id: string };
    log: (message: string) => Promise<void>;
  },
): Promise<void> {
  const c = ctx.configuration;
  if (c.databaseDownAt === key && !databaseDownSeen.has(ctx.session.id)) {
    databaseDownSeen.add(ctx.session.id);
    await ctx.log(`Phase ${key} met a database that ended its connection`);
    const lost = new Error('Connection terminated unexpectedly');
    throw new Error('Failed query: insert into agent_session_logs ...', { cause: lost });
  }
  if (c.delayMs) await sleep(c.delayMs, undefined, { signal: ctx.signal });
  if (c.hangAt === key) {
    if (c.ignoreAbort) await sleep(3_600_000, undefined, { ref: false });
    else await sleep(3_600_000, undefined, { signal: ctx.signal, ref: false });
  }
  if (c.failAt === key) throw new Error(`the test team was told to fail in phase ${key}`);
}

const collectResult = z.object({
  topic: z.string(),
  items: z.array(z.string()),
  revision: z.number().int(),
  feedbackSeen: z.array(z.string()),
  padding: z.string().optional(),
});
const analyseResult = z.object({
  itemCount: z.number().int(),
  earlierPhases: z.array(z.string()),
  feedbackCount: z.number().int(),
});
const draftResult = z.object({
  text: z.string(),
  fromModel: z.boolean(),
  revision: z.number().int(),
  feedbackSeen: z.array(z.string()),
});
const finishResult = z.object({
  summary: z.string(),
  earlierPhases: z.array(z.string()),
  feedbackCount: z.number().int(),
});

const team = defineTeam({
  id: TEST_TEAM_ID,
  name: 'Runtime Test Team',
  label: 'Runtime Test',
  description: 'Internal team that exercises the agent runtime in tests.',
  input: testInputSchema,
  configuration: testConfigSchema,
  results: {
    collect: collectResult,
    analyse: analyseResult,
    draft: draftResult,
    finish: finishResult,
  },
});

const collect = team.phase('collect', {
  name: 'Collect',
  description: 'Splits the topic into items.',
  checkpoint: { title: 'Checkpoint 1: Items Review' },
  async run(ctx) {
    await common('collect', ctx);
    const items = ctx.input.topic.split(/\s+/).filter(Boolean);
    const feedbackSeen = ctx.feedback.map((f) => f.feedback);
    if (ctx.revision) items.push(`revised: ${ctx.revision.feedback}`);
    for (let i = 1; i <= (ctx.configuration.logLines ?? 0); i++) await ctx.log(`Line ${i}`);
    await ctx.log(`Collected ${items.length} items from the topic`);
    if (ctx.configuration.invalidAt === 'collect') {
      return { topic: ctx.input.topic, items: 'not a list' } as never;
    }
    return {
      topic: ctx.input.topic,
      items,
      revision: ctx.feedback.filter((f) => f.phase === 1 && !f.approved).length,
      feedbackSeen,
      ...(ctx.configuration.padBytes ? { padding: 'x'.repeat(ctx.configuration.padBytes) } : {}),
    };
  },
});

const analyse = team.phase('analyse', {
  name: 'Analyse',
  description: 'Counts what the earlier phase collected.',
  async run(ctx) {
    await common('analyse', ctx);
    const itemCount = ctx.optionalResultOf('collect')?.items.length ?? 0;
    if (ctx.configuration.modelInAnalyse) {
      const reply = await ctx.llm.generateText({
        prompt: `Topic: ${ctx.input.topic}. Name one thing to analyse.`,
      });
      await ctx.log(`Model replied with ${reply.text.length} characters`);
    }
    await ctx.log(`Analysed ${itemCount} items`);
    return {
      itemCount,
      earlierPhases: ctx.completedPhases,
      feedbackCount: ctx.feedback.length,
    };
  },
});

const draft = team.phase('draft', {
  name: 'Draft',
  description: 'Writes a draft (with the model when configured).',
  checkpoint: {
    title: 'Checkpoint 2: Draft Review',
    data: (result) => ({ draft: result.text }),
  },
  async run(ctx) {
    await common('draft', ctx);
    const feedbackSeen = ctx.feedback.map((f) => f.feedback);
    const revision = ctx.feedback.filter((f) => f.phase === 3 && !f.approved).length;
    if (ctx.configuration.useModel) {
      let text = '';
      const calls = ctx.configuration.modelCalls ?? 1;
      for (let i = 0; i < calls; i++) {
        const reply = await ctx.llm.generateText({
          system: 'You write one-sentence research drafts.',
          prompt:
            `Topic: ${ctx.input.topic}` +
            (ctx.revision ? `\nRevise according to this feedback: ${ctx.revision.feedback}` : ''),
        });
        text = reply.text;
        await ctx.log(
          `Model replied with ${reply.text.length} characters (${reply.usage.totalTokens} tokens)`,
        );
      }
      return { text, fromModel: true, revision, feedbackSeen };
    }
    const text =
      `Draft about ${ctx.input.topic}` +
      (ctx.revision ? ` (revised: ${ctx.revision.feedback})` : '');
    await ctx.log(`Wrote a draft of ${text.length} characters`);
    return { text, fromModel: false, revision, feedbackSeen };
  },
});

const finish = team.phase('finish', {
  name: 'Finish',
  description: 'Summarises the run.',
  async run(ctx) {
    await common('finish', ctx);
    const earlierPhases = ctx.completedPhases;
    await ctx.log(`Summarised ${earlierPhases.length} earlier phases`);
    return {
      summary: `${ctx.input.topic}: ${earlierPhases.length} phases, ${ctx.feedback.length} feedback`,
      earlierPhases,
      feedbackCount: ctx.feedback.length,
    };
  },
});

export const runtimeTestTeam = team.build({
  phases: [collect, analyse, draft, finish],
  link: (sessionId) => `/app/runtime-test?session=${sessionId}`,
  agents: [
    {
      id: 'runtime-test-workflow',
      name: 'Runtime test workflow',
      description: 'All four phases with two checkpoints.',
    },
    {
      id: 'runtime-test-quick',
      name: 'Runtime test quick run',
      description: 'Analyse and finish, no checkpoints.',
      phases: ['analyse', 'finish'],
    },
  ],
  finalOutputs: (results) => ({
    summary: results.finish?.summary ?? null,
    results,
  }),
});
