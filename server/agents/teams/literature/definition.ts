import {
  completeResultSchema,
  gapsResultSchema,
  LITERATURE_TEAM_ID,
  literatureConfigurationSchema,
  literatureInputSchema,
  questionResultSchema,
  reportResultSchema,
  searchResultSchema,
} from '../../../../common/teams/literature';
import { defineTeam } from '../../kit';
import {
  arxivService,
  crossrefService,
  semanticScholarService,
} from '../../../sources/literature-services';
import { openAlexService } from '../../../sources/openalex-service';

  label: 'Literature Review',
  stage: 'literature',
/** The Literature Review team's declaration: input, configuration, phase results, services. */
export const literature = defineTeam({
  id: LITERATURE_TEAM_ID,
  name: 'Literature Review Team',
  description:
    'Searches OpenAlex, Crossref, arXiv, Semantic Scholar and the project library, maps research ' +
    'gaps and publication trends, and writes a review whose every citation is verified.',
  input: literatureInputSchema,
  configuration: literatureConfigurationSchema,
  results: {
    question: questionResultSchema,
    search: searchResultSchema,
    gaps: gapsResultSchema,
    report: reportResultSchema,
    complete: completeResultSchema,
  },
  services: {
    openalex: openAlexService,
    crossref: crossrefService,
    arxiv: arxivService,
    semanticScholar: semanticScholarService,
  },
});
