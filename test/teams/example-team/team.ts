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
/** The one work the example team "retrieves" in every session. */
export const EXAMPLE_WORK = {
  id: 'W-example-1',
  source: 'example',
  doi: '10.1234/example.2019',
  title: 'Wages and Output over the Cycle',
  authors: ['Ada Smith'],
  year: 2019,
};

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
    // What a real team records as it works: the computation behind its numbers, and the works
    // it retrieved (here one fixed record), which the citation gate then accepts.
    ctx.provenance.computation({
      id: 'count:words',
      engine: 'example-counter',
      what: 'Word count of the input text',
      version: '1',
    });
    ctx.provenance.work(EXAMPLE_WORK);
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
    // Only references to works recorded in this session reach the researcher.
    const summary = await ctx.citations.gate(reply.text, { where: 'summary' });
    let documentId: string | null = null;
    if (ctx.configuration.save) {
      const doc = await ctx.workspace.documents.save({
        name: 'Example summary',
        category: 'research_report',
        format: 'md',
        content: summary,
        provenance: {
          items: [
            { key: 'table:count', origin: 'computed', ref: 'count:words' },
            { key: `reference:${EXAMPLE_WORK.id}`, origin: 'retrieved', ref: EXAMPLE_WORK.id },
            { key: 'passage:summary', origin: 'model' },
          ],
        },
      });
      documentId = doc.id;
      await ctx.log(`Saved the summary as document ${doc.name}`);
    }
    return { summary, basedOnWords: counted.words, documentId };
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
