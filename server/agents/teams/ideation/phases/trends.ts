import { say } from '../agent-log';
import { ideation, phaseName } from '../definition';
import { discoverTrends, ECONOMICS_FIELD, topicItemText, trendWindow } from '../trend-discovery';

/**
 * Automatic mode, before the Ideator writes: the trending economics topics from OpenAlex's
 * publication counts by year (computed; needs no model). Its lines belong to the Ideator.
 */
export const trendsPhase = ideation.phase('trends', {
  name: phaseName('trends'),
  description:
    'Counts economics works by OpenAlex topic and year and picks the 5 topics whose output ' +
    'grew most over the last three years against the three before (computed).',
  async run(ctx) {
    const window = trendWindow(new Date());
    if (ctx.input.mode !== 'automatic') {
      // Reached only through the generic session route with a human-mode input.
      return {
        field: ECONOMICS_FIELD.label,
        recentYears: window.recent,
        baselineYears: window.baseline,
        topicsConsidered: 0,
        topics: [],
      };
    }
    const trends = await discoverTrends(ctx.services.openalex, window, ctx.signal);
    const [b0, b1] = window.baseline;
    const [r0, r1] = window.recent;
    await say(
      ctx.log,
      'Ideator',
      `Counted ${ECONOMICS_FIELD.label} works by topic in OpenAlex for each year ${b0}-${r1}: ` +
        `${trends.topicsConsidered} topics had at least 50 works in ${b0}-${b1}; ` +
        `the 5 whose output grew most in ${r0}-${r1}:`,
    );
    for (const [i, topic] of trends.topics.entries()) {
      await say(
        ctx.log,
        'Ideator',
        `Trending topic ${i + 1}: ${topicItemText(topic, window)} [OpenAlex ${topic.id}]`,
      );
    }
    return trends;
  },
});
