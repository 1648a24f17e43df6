import { FINAL_QUESTIONS_MIN, neutraliseMarkers } from '../../../../../common/teams/ideation';
import { say, warn } from '../agent-log';
import { ideation, phaseName } from '../definition';
import { candidatesSchema, clip, IDEATOR_SYSTEM } from '../prompts';
import { growthText } from '../trend-discovery';

/** A candidate shorter than this after cleaning says nothing. */
const CANDIDATE_MIN = 5;

/** The Ideator: candidate questions from the user's idea, or from the trending topics. */
export const ideatePhase = ideation.phase('ideate', {
  name: phaseName('ideate'),
  description: 'Proposes candidate research questions from the idea or the trending topics.',
  requiresModel: true,
  async run(ctx) {
    let prompt: string;
    let source: 'idea' | 'trends';
    if (ctx.input.mode === 'human') {
      source = 'idea';
      prompt =
        `The researcher's idea:\n"""\n${ctx.input.idea}\n"""\n\n` +
        'Propose 5 to 8 candidate research questions that develop this idea.';
    } else {
      const trends = ctx.resultOf('trends');
      if (trends.topics.length === 0)
        throw new Error('Trend discovery found no topics to ideate on');
      source = 'trends';
      const [r0, r1] = trends.recentYears;
      const [b0, b1] = trends.baselineYears;
      const lines = trends.topics.map(
        (t, i) =>
          `${i + 1}. ${t.label}: ${t.recentCount} works in ${r0}-${r1}, ${t.baselineCount} in ` +
          `${b0}-${b1} (${growthText(t.growth)})`,
      );
      prompt =
        `These ${trends.field} topics grew fastest in OpenAlex (publication counts):\n` +
        `${lines.join('\n')}\n\n` +
        'Propose 5 to 8 candidate research questions, each on one of these topics, that an ' +
        'economist could answer in a paper.';
    }
    const { object } = await ctx.llm.generateObject(candidatesSchema, {
      system: IDEATOR_SYSTEM,
      prompt,
      schemaName: 'candidates',
    });
    // Each candidate passes the citation gate before anyone sees it (no work is retrieved yet,
    // so any reference in it is removed), then becomes one line.
    const candidates: string[] = [];
    for (const raw of object.candidates) {
      const gated = await ctx.citations.gate(raw, { where: 'Ideator' });
      const text = clip(neutraliseMarkers(gated), 500);
      if (text.length >= CANDIDATE_MIN) candidates.push(text);
    }
    const blank = object.candidates.length - candidates.length;
    if (blank > 0)
      await warn(ctx.log, 'Ideator', `Left out ${blank} empty or unusable candidates of the model`);
    if (candidates.length < FINAL_QUESTIONS_MIN) {
      throw new Error(
        `The model proposed ${candidates.length} usable candidate questions; at least ` +
          `${FINAL_QUESTIONS_MIN} are needed to go on`,
      );
    }
    await say(
      ctx.log,
      'Ideator',
      `Proposed ${candidates.length} candidate questions from ${source === 'idea' ? 'your idea' : 'the trending topics'}`,
    );
    for (const [i, c] of candidates.entries()) await say(ctx.log, 'Ideator', `${i + 1}. ${c}`);
    return { source, candidates };
  },
});
