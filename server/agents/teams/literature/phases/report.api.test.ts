import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  reportResultSchema,
  type GapsResult,
  type Paper,
} from '../../../../../common/teams/literature';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../../../../../test/llm-server';
import { createPhaseHarness, type PhaseHarness } from '../../../../../test/teams/phase-harness';
import { buildReferences } from '../papers';
import { literatureTeam } from '../team';

/**
 * The report phase alone (phase harness): the scripted model cites works that were never
 * retrieved and writes its own reference list; the verifier removes them, says so in the log,
 * and the report's references resolve to retrieved works with identifiers.
 */

let llm: ScriptedLlmServer;
let h: PhaseHarness;

beforeAll(async () => {
  llm = await startScriptedLlmServer();
  h = await createPhaseHarness({
    env: {
      LLM_PROVIDER: 'openai-compatible',
      OPENAI_COMPATIBLE_BASE_URL: llm.baseUrl,
      LLM_MODEL: 'scripted-model',
    },
  });
});

afterAll(async () => {
  await h?.close();
  await llm?.close();
});

const paper = (number: number, title: string, abstract: string): Paper => ({
  number,
  title,
  authors: ['David Card', 'Alan B. Krueger'],
  abstract,
  key_insight: 'k',
  methodology: 'm',
  findings: 'f',
  source: 'crossref',
  sources: ['crossref'],
  sourceId: `10.1234/mw${number}`,
  doi: `10.1234/mw${number}`,
  year: 1990 + number,
  extractedFrom: 'abstract',
});

const papers = [
  paper(1, 'Minimum wages and employment in fast food', 'Employment did not fall after the rise.'),
  paper(2, 'Minimum wages and teen employment', 'Teen employment fell slightly.'),
  paper(3, 'Monopsony in labour markets', ''),
];

const gaps: GapsResult = {
  plan: { queries: ['minimum wage employment'], emphasis: 'relevance', focus: [], notes: [] },
  papers,
  gaps: [
    {
      gap_description: 'Long-run effects of minimum wages are rarely measured.',
      opportunity: 'o',
      recommendation: 'r',
      supporting_papers: [1],
    },
  ],
  trends: [],
  references: buildReferences(papers),
};

describe('report phase', () => {
  it('removes what the model invented and flags unsupported or uncheckable claims', async () => {
    llm.script({
      agent: 'literature',
      phase: 'report',
      match: 'You write literature reviews',
      replies: [
        {
          text: [
            '## Introduction',
            'Employment did not fall [1]. Teen employment rose sharply [2].',
            'Monopsony explains everything [3]. A classic survey agrees [41].',
            'Employment fell by 12% in 1991 [1].',
            'See also Neumark and Wascher (2008) and 10.1016/invented.2008.',
            '## References',
            '- [41] Neumark, D. (2008). Minimum Wages. MIT Press.',
          ].join('\n'),
        },
      ],
    });
    llm.script({
      agent: 'literature',
      phase: 'report',
      match: 'You check citations',
      replies: [
        {
          json: {
            checks: [
              { id: 0, supported: true, reason: 'stated' },
              { id: 1, supported: false, reason: 'The abstract says employment fell.' },
            ],
          },
        },
      ],
    });
    const run = await h.run(literatureTeam, 'report', {
      input: { researchQuestion: 'Do minimum wages reduce employment?' },
      results: { gaps },
    });
    const result = reportResultSchema.parse(run.result);
    const report = result.finalReport;
    expect(report).not.toMatch(/\[41\]|Neumark|10\.1016\/invented/);
    expect(result.verification.citationsRemoved.map((r) => r.citation)).toEqual([
      'Neumark and Wascher (2008)',
      '[41]',
      '10.1016/invented.2008',
    ]);
    expect(result.verification.referencesRemoved).toEqual([
      {
        citation: '- [41] Neumark, D. (2008). Minimum Wages. MIT Press.'.slice(2),
        reason: 'no work 41 was retrieved in this session',
      },
    ]);
    expect(run.logs.map((l) => l.message)).toEqual(
      expect.arrayContaining([
        'Citation verifier removed [41]: no work 41 was retrieved in this session (the retrieved set is 1-3)',
      ]),
    );
    // Claim check: [2]'s sentence is flagged by the model's verdict, [3]'s because work 3 has
    // no abstract to check against; [1]'s stays unflagged.
    expect(report).toContain(
      'Teen employment rose sharply [2]. **[Claim check: not supported by the abstract of work 2. The abstract says employment fell.]**',
    );
    // A sentence that cannot be checked says so, in words that do not contradict themselves:
    // its work has no abstract, or the check gave no verdict for it.
    expect(report).toContain(
      'Monopsony explains everything [3]. **[Claim check: not checked against work 3. No abstract was retrieved for the cited work.]**',
    );
    expect(report).toContain(
      '[1]. **[Claim check: not checked against work 1. The check gave no verdict for this sentence.]**',
    );
    expect(report).not.toMatch(/not supported[^\]]*no verdict/);
    expect(report).not.toContain('did not fall [1]. **[Claim');
    expect(result.verification.claimsChecked).toBe(4);
    expect(result.verification.claimsFlagged.map((f) => f.kind)).toEqual([
      'unsupported',
      'unchecked',
      'unchecked',
    ]);

    // Figures: 12% is in no computed or retrieved source; 1991 is the year of work 1.
    expect(report).toContain('Employment fell by 12% **[unverified figure]** in 1991 [1].');
    expect(result.verification.figuresUnverified).toEqual([
      { figure: '12%', sentence: 'Employment fell by 12% in 1991 [1].' },
    ]);
    expect(run.logs.map((l) => l.message)).toEqual(
      expect.arrayContaining([
        'Figure check: "12%" is in neither the computed trend table nor the cited abstracts; marked as an unverified figure in "Employment fell by 12% in 1991 [1]."',
      ]),
    );

    // The model's section is marked as its own; the references are outside the mark.
    expect(report).toMatch(
      /^## Introduction\n\n<!-- origin:model -->\n> \*\*Written by the model, not checked:\*\* Introduction\n/,
    );
    expect(report.indexOf('<!-- /origin:model -->')).toBeLessThan(report.indexOf('## References'));
    expect(result.references.map((r) => [r.number, r.doi])).toEqual([
      [1, '10.1234/mw1'],
      [2, '10.1234/mw2'],
      [3, '10.1234/mw3'],
    ]);
    expect(report).toContain('## References\n\n- [1] David Card and Alan B. Krueger (1991).');
    expect(run.checkpointData).toMatchObject({ finalReport: report });
  });
});
