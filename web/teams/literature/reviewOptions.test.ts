import { describe, expect, it } from 'vitest';
import {
  DEFAULT_REVIEW_OPTIONS,
  hasErrors,
  isPristineReview,
  optionErrors,
  questionFromAddress,
  reviewFormOf,
  startRequestOf,
  type ReviewOptions,
} from './reviewOptions';

const options = (changes: Partial<ReviewOptions>): ReviewOptions => ({
  ...DEFAULT_REVIEW_OPTIONS,
  ...changes,
});

describe('the review options', () => {
  it('sends only the question with the defaults', () => {
    expect(startRequestOf('  Do minimum wages cut jobs?  ', DEFAULT_REVIEW_OPTIONS)).toEqual({
      researchQuestion: 'Do minimum wages cut jobs?',
      workflow: 'basic_hitl',
    });
    expect(hasErrors(optionErrors(DEFAULT_REVIEW_OPTIONS))).toBe(false);
  });

  it('sends the sources, years, number of works and project documents chosen', () => {
    expect(
      startRequestOf(
        'Q?',
        options({
          sources: ['library', 'openalex'],
          fromYear: '2010',
          toYear: ' 2020 ',
          topN: '20',
          libraryDocumentIds: ['d1'],
        }),
      ),
    ).toEqual({
      researchQuestion: 'Q?',
      workflow: 'basic_hitl',
      sources: ['openalex', 'library'],
      fromYear: 2010,
      toYear: 2020,
      topN: 20,
      libraryDocumentIds: ['d1'],
    });
  });

  it('names each field that cannot be sent', () => {
    expect(
      optionErrors(options({ sources: [], fromYear: '20', toYear: 'abcd', topN: '500' })),
    ).toEqual({
      sources: 'Choose at least one source',
      fromYear: 'A year from 1500 to 2100',
      toYear: 'A year from 1500 to 2100',
      topN: 'A number from 5 to 100',
    });
    expect(optionErrors(options({ fromYear: '2020', toYear: '2010' }))).toEqual({
      toYear: 'The last year comes before the first',
    });
  });

  it('accepts the library alone only when there is a library to read', () => {
    const libraryOnly = options({ sources: ['library'] });
    expect(optionErrors(libraryOnly).sources).toBe(
      'Add library files or choose project documents, or choose another source',
    );
    expect(optionErrors(libraryOnly, 1)).toEqual({});
    expect(optionErrors({ ...libraryOnly, libraryDocumentIds: ['d1'] })).toEqual({});
  });

  it('takes the question from the address', () => {
    expect(questionFromAddress(new URLSearchParams('question=%20Why%3F%20'))).toBe('Why?');
    expect(questionFromAddress(new URLSearchParams(''))).toBe('');
    expect(questionFromAddress(new URLSearchParams(`question=${'x'.repeat(3000)}`))).toHaveLength(
      2000,
    );
  });
});

describe('the form of a reopened review', () => {
  it('holds the question and the options the session was started with', () => {
    const form = reviewFormOf({
      input: { researchQuestion: 'Do minimum wages cost jobs?' },
      configuration: {
        workflow: 'basic_hitl',
        topN: 25,
        sources: ['openalex'],
        fromYear: 2000,
        toYear: 2020,
        libraryDocumentIds: [],
        library: [],
      },
    });
    expect(form).toEqual({
      question: 'Do minimum wages cost jobs?',
      workflow: 'basic_hitl',
      options: {
        sources: ['openalex'],
        fromYear: '2000',
        toYear: '2020',
        topN: '25',
        libraryDocumentIds: [],
      },
    });
    // What the form makes of it starts the same review again.
    expect(startRequestOf(form!.question, form!.options)).toMatchObject({
      researchQuestion: 'Do minimum wages cost jobs?',
      sources: ['openalex'],
      fromYear: 2000,
      toYear: 2020,
      topN: 25,
    });
  });

  it("takes the server's defaults for options the session left out, and refuses another team's input", () => {
    const form = reviewFormOf({ input: { researchQuestion: 'Why?' }, configuration: {} });
    expect(form?.options).toEqual(DEFAULT_REVIEW_OPTIONS);
    expect(
      reviewFormOf({ input: { idea: 'x', mode: 'human' }, configuration: {} }),
    ).toBeUndefined();
  });

  it('is pristine only with no question, default options and no files', () => {
    expect(isPristineReview('', DEFAULT_REVIEW_OPTIONS)).toBe(true);
    expect(isPristineReview('Why?', DEFAULT_REVIEW_OPTIONS)).toBe(false);
    expect(isPristineReview('', options({ topN: '30' }))).toBe(false);
    expect(isPristineReview('', DEFAULT_REVIEW_OPTIONS, 1)).toBe(false);
  });
});
