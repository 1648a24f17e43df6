import {
  LITERATURE_TEAM_ID,
  literatureConfigurationSchema,
  literatureInputSchema,
  literaturePhases,
} from '../../../../common/teams/literature';
import { defineTeam } from '../../kit';
import {
  arxivService,
  crossrefService,
  semanticScholarService,
} from '../../../sources/literature-services';
import { openAlexService } from '../../../sources/openalex-service';

/** The Literature Review team's declaration: input, configuration, phase results, services. */
export const literature = defineTeam({
  id: LITERATURE_TEAM_ID,
  name: 'Literature Review Team',
  label: 'Literature Review',
  stage: 'literature',
  description:
    'Searches OpenAlex, Crossref, arXiv, Semantic Scholar and the project library, maps research ' +
    'gaps and publication trends, and writes a review whose every citation is verified.',
  input: literatureInputSchema,
  configuration: literatureConfigurationSchema,
  results: literaturePhases.results,
  services: {
    openalex: openAlexService,
    crossref: crossrefService,
    arxiv: arxivService,
    semanticScholar: semanticScholarService,
  },
});
