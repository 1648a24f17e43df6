import { z } from 'zod';
import { sessionStatusSchema } from '../agents';
import {
  definePhaseTable,
  sessionIdField,
  teamLogsReplySchema,
  teamStartReplySchema,
} from './shared';

/**
 * The Ideation team's contract: its start, logs and save calls, its phase table (each phase's
 * result), and the rules the screen reads the log with. Server and screen import it; the
 * log-parsing rules are pure functions (unit-tested in ideation.test.ts).
 *
 * How the log reads: every line an agent writes starts with its name ("Refiner: ..."); the
 * runtime's "Starting phase 2/4: Refiner" line also opens that agent's section. The Finalizer's
 * last two lines are `FINAL_QUESTIONS: [...]` (a JSON list of question texts, each with its
 * justification after the word 'Justification:') and `TERMINATE`.
 */

export const IDEATION_TEAM_ID = 'ideation';

/** The four agents, in the order their panels appear and their sections run. */
export const IDEATION_AGENTS = ['Ideator', 'Refiner', 'Contextualizer', 'Finalizer'] as const;
export type IdeationAgent = (typeof IDEATION_AGENTS)[number];

export const FINAL_QUESTIONS_MARKER = 'FINAL_QUESTIONS:';
export const TERMINATE_MARKER = 'TERMINATE';
export const JUSTIFICATION_MARKER = 'Justification:';

/** The screen polls the log every 1.5 s (faster than the other teams' 2 s). */
export const IDEATION_POLL_INTERVAL_MS = 1500;
/** In automatic mode the first 5 items of the FINAL_QUESTIONS list are trending topics. */
export const TRENDING_TOPIC_COUNT = 5;
export const FINAL_QUESTIONS_MIN = 3;
export const FINAL_QUESTIONS_MAX = 5;
export const IDEA_MAX_LENGTH = 4000;

export const IDEATION_MODES = ['human', 'automatic'] as const;
export const ideationModeSchema = z.enum(IDEATION_MODES);
export type IdeationMode = z.infer<typeof ideationModeSchema>;

export const IDEATION_MODE_LABELS: Record<IdeationMode, string> = {
  human: 'Human-Initiated (Simple)',
  automatic: 'Automated Trend-Driven',
};

/** The one real workflow of the screen's dropdown (the others are announced as coming). */
export const IDEATION_WORKFLOW = {
  value: 'research_questions',
  label: 'Research Question Generation',
  description:
    'Four agents turn your idea, or the economics topics whose publication output grew most in ' +
    'OpenAlex, into 3 to 5 ranked research questions: the Ideator proposes candidates, the ' +
    'Refiner sharpens them, the Contextualizer ties each to theory and to the works it retrieves ' +
    'from OpenAlex (with their counts), and the Finalizer ranks them with a justification.',
} as const;

// ---------------------------------------------------------------------------------------------
// Input and phase results
// ---------------------------------------------------------------------------------------------

/** The session's input as the runtime stores it. */
export const ideationInputSchema = z.discriminatedUnion('mode', [
  z.object({
    mode: z.literal('human'),
    idea: z.string().trim().min(1, 'idea is required').max(IDEA_MAX_LENGTH),
  }),
  z.object({ mode: z.literal('automatic') }),
]);
export type IdeationInput = z.infer<typeof ideationInputSchema>;

export const yearCountSchema = z.object({
  year: z.number().int(),
  count: z.number().int().min(0),
});
export type YearCount = z.infer<typeof yearCountSchema>;

const yearRange = z.tuple([z.number().int(), z.number().int()]);

/** A trending topic: OpenAlex's publication counts by year, and the growth computed from them. */
export const trendingTopicSchema = z.object({
  /** OpenAlex topic id, e.g. 'T10140'. */
  id: z.string(),
  label: z.string(),
  /** Works in the recent years and in the baseline years before them. */
  recentCount: z.number().int().min(0),
  baselineCount: z.number().int().min(0),
  /** recent / baseline - 1 (0.46 = 46 % more works). */
  growth: z.number(),
  countsByYear: z.array(yearCountSchema),
});
export type TrendingTopic = z.infer<typeof trendingTopicSchema>;

export const trendsResultSchema = z.object({
  /** The OpenAlex field the topics belong to (Economics, Econometrics and Finance). */
  field: z.string(),
  recentYears: yearRange,
  baselineYears: yearRange,
  /** Topics with enough works in the baseline period to be compared. */
  topicsConsidered: z.number().int().min(0),
  /** The 5 fastest-growing topics; none when the session is in human mode. */
  topics: z
    .array(trendingTopicSchema)
    .refine((t) => t.length === 0 || t.length === TRENDING_TOPIC_COUNT, {
      message: `trend discovery finds exactly ${TRENDING_TOPIC_COUNT} topics`,
    }),
});
export type TrendsResult = z.infer<typeof trendsResultSchema>;

export const ideateResultSchema = z.object({
  source: z.enum(['idea', 'trends']),
  candidates: z.array(z.string().min(1)).min(FINAL_QUESTIONS_MIN),
});
export type IdeateResult = z.infer<typeof ideateResultSchema>;

export const refinedQuestionSchema = z.object({
  /** 'Q1', 'Q2', ... in the Refiner's order. */
  id: z.string().regex(/^Q\d+$/),
  question: z.string().min(2).endsWith('?'),
  /** The keywords the Contextualizer searches OpenAlex with. */
  searchQuery: z.string().min(1),
});
export type RefinedQuestion = z.infer<typeof refinedQuestionSchema>;

export const refineResultSchema = z.object({
  questions: z.array(refinedQuestionSchema).min(FINAL_QUESTIONS_MIN),
  /** Candidates merged into another or dropped (duplicates, several questions in one). */
  candidatesDropped: z.number().int().min(0),
});
export type RefineResult = z.infer<typeof refineResultSchema>;

/** A work retrieved from OpenAlex in this session (nothing else is ever cited). */
export const groundingWorkSchema = z.object({
  /** 'W1'.. within its question: how the model refers to it. */
  key: z.string(),
  /** OpenAlex work id, e.g. 'W2741809807'. */
  openalexId: z.string(),
  title: z.string(),
  year: z.number().int().nullable(),
  doi: z.string().nullable(),
  url: z.string().nullable(),
  citations: z.number().int().nullable(),
  authors: z.array(z.string()),
});
export type GroundingWork = z.infer<typeof groundingWorkSchema>;

export const NOVELTY_LEVELS = ['little studied', 'moderately studied', 'heavily studied'] as const;
export const noveltySchema = z.enum(NOVELTY_LEVELS);
export type Novelty = z.infer<typeof noveltySchema>;
/** Works matching a question's search below which it counts as little / moderately studied. */
export const NOVELTY_THRESHOLDS = { little: 100, moderate: 1000 } as const;

/** How studied a question is, from the number of OpenAlex works matching its search. */
export function noveltyOf(totalWorks: number): Novelty {
  if (totalWorks < NOVELTY_THRESHOLDS.little) return 'little studied';
  if (totalWorks < NOVELTY_THRESHOLDS.moderate) return 'moderately studied';
  return 'heavily studied';
}

/** What a question rests on: the OpenAlex search, its counts and the works it retrieved. */
export const groundingSchema = z.object({
  searchQuery: z.string(),
  /** Works OpenAlex counts for the search (all years). */
  totalWorks: z.number().int().min(0),
  /** Works for the search by year over the recent and baseline periods. */
  countsByYear: z.array(yearCountSchema),
  novelty: noveltySchema,
  works: z.array(groundingWorkSchema),
});
export type Grounding = z.infer<typeof groundingSchema>;

/**
 * What a weak model left out of a question's record: the code keeps what it computed (the
 * question, its works and counts) and marks these as not supplied by the model.
 */
export const MODEL_GAP_FIELDS = ['theory', 'context', 'justification', 'ranking'] as const;
export const modelGapFieldSchema = z.enum(MODEL_GAP_FIELDS);
export type ModelGapField = z.infer<typeof modelGapFieldSchema>;

/** What the screen and the saved question set say in place of a field the model left out. */
export const NOT_SUPPLIED_BY_MODEL: Record<ModelGapField, string> = {
  theory: 'The model supplied no theory for this question.',
  context: 'The model supplied no context for this question.',
  justification: 'The model supplied no justification for this question.',
  ranking: 'The model did not rank this question; it keeps the Refiner’s order.',
};

export const contextualizedQuestionSchema = refinedQuestionSchema.extend({
  /** The economic theory the question ties to. */
  theory: z.string(),
  /** How the retrieved works relate to it (cites only keys of `grounding.works`). */
  context: z.string(),
  /** Keys of the retrieved works the context cites (checked against the retrieved ones). */
  citedWorks: z.array(z.string()),
  grounding: groundingSchema,
  /** Fields the model did not supply (empty, or the question left out of its answer). */
  modelGaps: z.array(modelGapFieldSchema).default([]),
});
export type ContextualizedQuestion = z.infer<typeof contextualizedQuestionSchema>;

export const contextualizeResultSchema = z.object({
  questions: z.array(contextualizedQuestionSchema).min(FINAL_QUESTIONS_MIN),
  /** Citations the model made to works that were not retrieved, removed. */
  citationsRemoved: z.number().int().min(0),
});
export type ContextualizeResult = z.infer<typeof contextualizeResultSchema>;

export const finalQuestionSchema = z.object({
  rank: z.number().int().min(1),
  /** The Refiner's id of the question ('Q3'). */
  id: z.string(),
  question: z.string(),
  justification: z.string(),
  theory: z.string(),
  grounding: groundingSchema,
  /** Fields the model did not supply: theory or context (Contextualizer), justification, ranking. */
  modelGaps: z.array(modelGapFieldSchema).default([]),
  /** The Contextualizer's context (written by the model; cites only `grounding.works`). */
  context: z.string().default(''),
});
export type FinalQuestion = z.infer<typeof finalQuestionSchema>;

export const finalizeResultSchema = z.object({
  mode: ideationModeSchema,
  /** The trending topics (automatic mode), first in `items`. */
  topics: z.array(trendingTopicSchema),
  questions: z.array(finalQuestionSchema).min(FINAL_QUESTIONS_MIN).max(FINAL_QUESTIONS_MAX),
  /** The FINAL_QUESTIONS list as written to the log. */
  items: z.array(z.string()),
  /** The question set saved as a document (null when it could not be saved). */
  documentId: z.string().nullable().default(null),
});
export type FinalizeResult = z.infer<typeof finalizeResultSchema>;

/**
 * The phases in run order. Human mode runs every phase but `trends` (its sessions number their
 * phases 1-4 from `ideate`); automatic mode runs all five. Read results by key
 * (`readPhaseResults` with the session's results list), not by number.
 */
export const ideationPhases = definePhaseTable([
  { key: 'trends', name: 'Ideator (trend discovery)', result: trendsResultSchema },
  { key: 'ideate', name: 'Ideator', result: ideateResultSchema },
  { key: 'refine', name: 'Refiner', result: refineResultSchema },
  { key: 'contextualize', name: 'Contextualizer', result: contextualizeResultSchema },
  { key: 'finalize', name: 'Finalizer', result: finalizeResultSchema },
] as const);
export type IdeationPhaseKey = (typeof ideationPhases.keys)[number];

// ---------------------------------------------------------------------------------------------
// Calls under /api/agents/ideation-team
// ---------------------------------------------------------------------------------------------

/**
 * POST /api/agents/ideation-team: `{idea, mode: 'human'}`, `{mode: 'automatic'}`, or the legacy
 * `{idea}` (human mode). `projectId` attaches the session to a project.
 */
export const startIdeationRequestSchema = z
  .object({
    idea: z
      .string({ message: 'idea must be a text' })
      .max(IDEA_MAX_LENGTH, `idea must be at most ${IDEA_MAX_LENGTH} characters`)
      .optional(),
    mode: ideationModeSchema.optional(),
    projectId: z.uuid({ message: 'projectId must be a project id' }).optional(),
  })
  .superRefine((body, ctx) => {
    if ((body.mode ?? 'human') === 'human' && !body.idea?.trim()) {
      ctx.addIssue({
        code: 'custom',
        path: ['idea'],
        message: 'idea is required (or choose mode "automatic")',
      });
    }
  });
export type StartIdeationRequest = z.infer<typeof startIdeationRequestSchema>;

/**
 * The reply of POST /api/agents/ideation-team, at once while the agents work on: the session as
 * every team's start reply gives it, with the legacy client's `questions` (empty at start: they
 * arrive in the log's FINAL_QUESTIONS line) and the log so far.
 */
export const startIdeationReplySchema = teamStartReplySchema.extend({
  questions: z.array(z.string()),
  logs: z.array(z.string()),
});
export type StartIdeationReply = z.infer<typeof startIdeationReplySchema>;

/**
 * GET /api/agents/ideation-team/logs/{sessionId}: the log lines (what the legacy client reads)
 * and the session's state (the screen polls only this call), with, as the phases finish, their
 * structured results: the trending topics, every question's grounding, and the final questions.
 */
export const ideationLogsReplySchema = teamLogsReplySchema.extend({
  mode: ideationModeSchema,
  status: sessionStatusSchema,
  /** The 1-based phase of the session's plan running or last run. */
  phase: z.number().int().min(0),
  error: z.string().nullable(),
  topics: z.array(trendingTopicSchema).nullable(),
  grounding: z.array(contextualizedQuestionSchema).nullable(),
  finalQuestions: z.array(finalQuestionSchema).nullable(),
  projectId: z.uuid().nullable(),
});
export type IdeationLogsReply = z.infer<typeof ideationLogsReplySchema>;

/** POST /api/agents/ideation-team/save: final questions into a project's researchQuestions. */
export const saveIdeationRequestSchema = z.object({
  sessionId: sessionIdField,
  projectId: z.uuid({ message: 'projectId must be a project id' }),
  /** Texts of the final questions to save; all of them when left out. */
  questions: z
    .array(z.string().trim().min(1))
    .min(1, 'questions must name at least one question')
    .max(FINAL_QUESTIONS_MAX)
    .optional(),
});
export type SaveIdeationRequest = z.infer<typeof saveIdeationRequestSchema>;

export const saveIdeationReplySchema = z.object({
  success: z.literal(true),
  data: z.object({
    projectId: z.uuid(),
    title: z.string(),
    researchQuestions: z.array(z.string()),
    /** The questions that were new to the project (others were there already). */
    added: z.array(z.string()),
  }),
});
export type SaveIdeationReply = z.infer<typeof saveIdeationReplySchema>;

// ---------------------------------------------------------------------------------------------
// Reading the log
// ---------------------------------------------------------------------------------------------

/** A question item: its text and the justification after the word 'Justification:'. */
export interface QuestionItem {
  question: string;
  justification?: string;
}

/** Splits "Question? Justification: because ..." at the first 'Justification:'. */
export function splitJustification(text: string): QuestionItem {
  const at = text.indexOf(JUSTIFICATION_MARKER);
  if (at < 0) return { question: text.trim() };
  // Separators a writer puts before the word ("Q? - Justification:", "Q? | Justification:").
  const question = text
    .slice(0, at)
    .trim()
    .replace(/[\s\-–—|:;,]+$/, '');
  const justification = text.slice(at + JUSTIFICATION_MARKER.length).trim();
  return justification ? { question, justification } : { question };
}

/** One item of the FINAL_QUESTIONS list as the log carries it. */
export function questionItemText(question: string, justification?: string): string {
  return justification ? `${question} ${JUSTIFICATION_MARKER} ${justification}` : question;
}

export type FinalQuestionsParse =
  | { found: false }
  | { found: true; ok: true; items: QuestionItem[] }
  | { found: true; ok: false; error: string };

function itemOf(raw: unknown): QuestionItem | undefined {
  if (typeof raw === 'string') return raw.trim() ? splitJustification(raw) : undefined;
  if (typeof raw === 'object' && raw !== null) {
    const r = raw as Record<string, unknown>;
    const text = typeof r.question === 'string' ? r.question : r.text;
    if (typeof text !== 'string' || !text.trim()) return undefined;
    const split = splitJustification(text);
    if (typeof r.justification === 'string' && r.justification.trim()) {
      return { question: split.question, justification: r.justification.trim() };
    }
    return split;
  }
  return undefined;
}

/** The last line beginning with 'FINAL_QUESTIONS:', read as a JSON list of question items. */
export function parseFinalQuestions(logs: readonly string[]): FinalQuestionsParse {
  let line: string | undefined;
  for (let i = logs.length - 1; i >= 0; i--) {
    const l = logs[i]!.trimStart();
    if (l.startsWith(FINAL_QUESTIONS_MARKER)) {
      line = l;
      break;
    }
  }
  if (line === undefined) return { found: false };
  let value: unknown;
  try {
    value = JSON.parse(line.slice(FINAL_QUESTIONS_MARKER.length).trim());
  } catch (err) {
    return { found: true, ok: false, error: (err as Error).message };
  }
  if (!Array.isArray(value)) return { found: true, ok: false, error: 'not a JSON list' };
  const items: QuestionItem[] = [];
  for (const [i, raw] of value.entries()) {
    const item = itemOf(raw);
    if (!item) return { found: true, ok: false, error: `item ${i + 1} is not a question` };
    items.push(item);
  }
  return { found: true, ok: true, items };
}

/** Generation is complete once any line contains TERMINATE (the screen stops polling then). */
export function hasTerminated(logs: readonly string[]): boolean {
  return logs.some((l) => l.includes(TERMINATE_MARKER));
}

/** In automatic mode the first 5 items are topics, the rest questions. */
export function splitAutomaticItems<T>(items: readonly T[]): { topics: T[]; questions: T[] } {
  return {
    topics: items.slice(0, TRENDING_TOPIC_COUNT),
    questions: items.slice(TRENDING_TOPIC_COUNT),
  };
}

const agentAlternation = IDEATION_AGENTS.join('|');
const AGENT_LINE = new RegExp(`^(${agentAlternation}):\\s?(.*)$`, 's');
const PHASE_START = new RegExp(`^Starting phase \\d+/\\d+: (${agentAlternation})\\b`);

/** The agent a line was written by ("Refiner: ..."), and its text without the name. */
export function agentLine(line: string): { agent: IdeationAgent; text: string } | undefined {
  const m = AGENT_LINE.exec(line);
  return m ? { agent: m[1] as IdeationAgent, text: m[2]! } : undefined;
}

/** The agent whose section this line begins, if it begins one. */
export function sectionStartOf(line: string): IdeationAgent | undefined {
  const m = PHASE_START.exec(line) ?? AGENT_LINE.exec(line);
  return m ? (m[1] as IdeationAgent) : undefined;
}

export type AgentPanelState = 'pending' | 'active' | 'completed';

export interface AgentPanel {
  agent: IdeationAgent;
  state: AgentPanelState;
  /** The agent's own lines, without its name. */
  lines: string[];
}

/**
 * The four agent panels from the log: while generating, the first panel is
 * active before any section begins; a panel is completed once a later agent's section begins or
 * TERMINATE appears; the latest begun section is active, the ones after it pending.
 */
export function agentPanels(logs: readonly string[], generating: boolean): AgentPanel[] {
  const lines = new Map<IdeationAgent, string[]>(IDEATION_AGENTS.map((a) => [a, []]));
  let latest = -1;
  for (const line of logs) {
    const start = sectionStartOf(line);
    if (start) latest = Math.max(latest, IDEATION_AGENTS.indexOf(start));
    const own = agentLine(line);
    if (own) lines.get(own.agent)!.push(own.text);
  }
  const done = hasTerminated(logs);
  if (latest < 0 && generating) latest = 0;
  return IDEATION_AGENTS.map((agent, i) => ({
    agent,
    lines: lines.get(agent)!,
    state: done || i < latest ? 'completed' : i === latest ? 'active' : 'pending',
  }));
}

/**
 * Text that goes into a log line from a model or a user: one line, and never a marker the
 * screen acts on (an idea about "TERMINATE clauses" must not end the run on the screen).
 */
export function neutraliseMarkers(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replaceAll(TERMINATE_MARKER, 'Terminate')
    .replace(/^FINAL_QUESTIONS:/, 'Final questions:');
}
