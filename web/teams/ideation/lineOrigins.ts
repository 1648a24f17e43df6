import type { ItemOrigin } from '../../../common/provenance';
import type { IdeationAgent } from '../../../common/teams/ideation';

/**
 * Where a line of an agent's panel came from, read from its wording (the server writes each kind
 * of line one way): the model's candidates, questions, theories and ranked justifications are
 * 'model'; the counts and topics read from OpenAlex are 'computed'; the agents' notes about
 * their own work (how many were kept, what was left out) have no mark.
 */
export function lineOrigin(agent: IdeationAgent, text: string): ItemOrigin | undefined {
  switch (agent) {
    case 'Ideator':
      if (/^Trending topic \d+:|^Counted /.test(text)) return 'computed';
      return /^\d+\. /.test(text) ? 'model' : undefined;
    case 'Refiner':
      return /^Q\d+\. /.test(text) ? 'model' : undefined;
    case 'Contextualizer':
      if (/^Q\d+ ties to /.test(text)) return 'model';
      return /^Q\d+: [\d,]+ works in OpenAlex match/.test(text) ? 'computed' : undefined;
    case 'Finalizer':
      return /^\d+\. /.test(text) ? 'model' : undefined;
  }
}
