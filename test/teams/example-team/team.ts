import { defineTeam, teamActor } from '../../../server/agents/kit';
import { greeterService } from './greeter-service';
import {
  countResultSchema,
  exampleConfigurationSchema,
  exampleInputSchema,
  startExampleRequestSchema,
  summaryResultSchema,
} from './schemas';

/**
 * A two-phase team written the way docs/architecture.md ("Adding a team") says: a computed phase,
 * then a phase that needs the model and ends at a checkpoint, its routes under its own prefix.
 */
const team = defineTeam({
  id: 'example',
  name: 'Example Team',
  label: 'Example',
  stage: 'reporting',
  description: 'Counts the words of a text, then has the model summarise it.',
  input: exampleInputSchema,
  configuration: exampleConfigurationSchema,
  results: { count: countResultSchema, summarise: summaryResultSchema },
  services: { greeter: greeterService },
});

const count = team.phase('count', {
  name: 'Count',
  description: 'Counts the words (computed; needs no model).',
  async run(ctx) {
    const words = ctx.input.text.split(/\s+/).filter(Boolean);
    const longest = words.reduce((a, b) => (b.length > a.length ? b : a), '');
    await ctx.log(`Counted ${words.length} words`);
    return { words: words.length, longest, greeting: ctx.services.greeter.greet('researcher') };
  },
});

const summarise = team.phase('summarise', {
  name: 'Summarise',
  description: 'The model summarises the text.',
  requiresModel: true,
  checkpoint: { title: 'Checkpoint 1: Summary Review', data: (r) => ({ summary: r.summary }) },
  async run(ctx) {
    const counted = ctx.resultOf('count');
    const reply = await ctx.llm.generateText({
      prompt:
        `Summarise in one sentence (${counted.words} words): ${ctx.input.text}` +
        (ctx.revision ? `\nRevise: ${ctx.revision.feedback}` : ''),
    });
    await ctx.log(`The model wrote a summary of ${reply.text.length} characters`);
    let documentId: string | null = null;
    if (ctx.configuration.save) {
      const doc = await ctx.workspace.documents.save({
        name: 'Example summary',
        category: 'research_report',
        format: 'md',
        content: reply.text,
      });
      documentId = doc.id;
      await ctx.log(`Saved the summary as document ${doc.name}`);
    }
    return { summary: reply.text, basedOnWords: counted.words, documentId };
  },
});

export const exampleTeam = team.build({
  phases: [count, summarise],
  finalOutputs: (results) => ({ summary: results.summarise?.summary ?? null }),
  routes: {
    prefix: '/api/example-team',
    register(app, kit) {
      app.post(
        '/start',
        { config: { access: 'user' }, schema: { body: startExampleRequestSchema } },
        async (request, reply) => {
          const { text, projectId, save } = request.body;
          const session = await kit.sessions.start(teamActor(request), {
            teamId: 'example',
            input: { text },
            configuration: { save: save ?? false },
            projectId,
          });
          return reply.code(201).send({ success: true, sessionId: session.sessionId });
        },
      );
    },
  },
});
