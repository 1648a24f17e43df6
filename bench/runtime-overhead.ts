/**
 * Agent runtime overhead, in process (the runtime as tests build it, worker inside):
 *
 * 1. Phase transitions per second with instant phases: S sessions of the test team's quick
 *    agent (2 phases, no checkpoints) started at once; every phase is one pg-boss job, a lease,
 *    log lines, the result write and the published updates.
 * 2. Latency of one session alone (start -> completed, 2 instant phases).
 * 3. Overhead as a share of model time: sessions (one at a time) whose analyse phase makes one
 *    call to the scripted OpenAI-compatible server answering after a fixed delay. Overhead =
 *    session wall time - the model call's own latency (llm_calls.latency_ms).
 *
 *   npx tsx bench/runtime-overhead.ts [sessions=100] [modelDelayMs=500]
 *   TEST_DB=postgres TEST_DATABASE_URL=postgres://... npx tsx bench/runtime-overhead.ts
 */
import { inArray } from 'drizzle-orm';
import pg from 'pg';
import type { AgentSession } from '../common/agents';
import { agentSessions, llmCalls } from '../server/db/schema';
import { ADMIN, createTestApp, login, type TestApp } from '../test/app';
import { startScriptedLlmServer } from '../test/llm-server';
import { sessionClient } from '../test/teams/helpers';
import { runtimeTestTeam } from '../test/teams/runtime-test-team';

const SESSIONS = Number(process.argv[2] ?? 100);
const MODEL_DELAY_MS = Number(process.argv[3] ?? 500);
const WORKERS = 8;

/**
 * SQL statements sent to the database while `sqlLog.on` (the benchmark's own polling is not
 * counted). PostgreSQL: every pg client's query
 * (Drizzle's pool and pg-boss's); PGlite: the client's query/exec and those inside transactions.
 */
const sqlLog = {
  on: false,
  statements: [] as string[],
  at: [] as number[],
  took: [] as number[],
  t0: 0,
};
/** The benchmark's own poll (waitAllDone), left out of the count. */
const OWN_POLL = /^select "status", "error" from "agent_sessions"/;
/** Records a statement sent; returns what to call when its answer came (for the trace). */
function record(text: unknown): () => void {
  const none = () => undefined;
  if (!sqlLog.on) return none;
  const t = typeof text === 'string' ? text : ((text as { text?: string } | null)?.text ?? '?');
  const statement = t.replace(/\s+/g, ' ').trim();
  if (OWN_POLL.test(statement)) return none;
  const i = sqlLog.statements.push(statement) - 1;
  const sent = performance.now();
  sqlLog.at.push(sent - sqlLog.t0);
  sqlLog.took.push(NaN);
  const statements = sqlLog.statements;
  return () => {
    if (sqlLog.statements === statements) sqlLog.took[i] = performance.now() - sent;
  };
}
function countSqlOnPostgres(): void {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    const answered = record(args[0]);
    const last = args.length - 1;
    if (typeof args[last] === 'function') {
      const callback = args[last] as (...a: unknown[]) => unknown;
      args[last] = (...a: unknown[]) => (answered(), callback(...a));
    }
    const result = original.apply(this, args);
    if (result instanceof Promise) void result.then(answered, answered);
    return result;
  };
}
interface QueryTarget {
  query: (...args: unknown[]) => Promise<unknown>;
  exec: (...args: unknown[]) => Promise<unknown>;
  transaction: (cb: (tx: QueryTarget) => Promise<unknown>) => Promise<unknown>;
}
function countSqlOnPglite(client: QueryTarget): void {
  const wrap = (target: QueryTarget) => {
    const query = target.query.bind(target);
    const exec = target.exec.bind(target);
    const timed = (run: () => Promise<unknown>, text: unknown) => {
      const answered = record(text);
      const result = run();
      void result.then(answered, answered);
      return result;
    };
    target.query = (...args) => timed(() => query(...args), args[0]);
    target.exec = (...args) => timed(() => exec(...args), args[0]);
  };
  wrap(client);
  const transaction = client.transaction.bind(client);
  client.transaction = (cb) =>
    transaction((tx) => {
      record('BEGIN');
      wrap(tx);
      return cb(tx).finally(() => record('COMMIT'));
    });
}
/** Statement kinds: the first words, enough to tell the table and the verb. */
function kindOf(statement: string): string {
  const m =
    /^(with \w+ as \( update \w+|insert into "?[\w.]+"?|update "?[\w.]+"?|delete from "?[\w.]+"?|select .*? from "?[\w.]+"?|\w+)/i.exec(
      statement,
    );
  return (m?.[1] ?? statement.slice(0, 40)).replace(/select .*? from/i, 'select ... from');
}

function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

async function executeQuick(
  t: TestApp,
  token: string,
  configuration: Record<string, unknown>,
): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v2/agents/runtime-test-quick/execute',
    headers: { authorization: `Bearer ${token}` },
    payload: { input: { topic: 'bench' }, configuration },
  });
  if (res.statusCode !== 201) throw new Error(`execute ${res.statusCode} ${res.body}`);
  return (res.json() as { execution: { executionId: string } }).execution.executionId;
}

/** Waits until every session is completed, with one query per poll (not one call per session). */
async function waitAllDone(
  t: TestApp,
  token: string,
  ids: string[],
  beforeReads: () => Promise<void> = async () => undefined,
): Promise<AgentSession[]> {
  const deadline = Date.now() + 600_000;
  for (;;) {
    const rows = await t.ctx.db
      .select({ status: agentSessions.status, error: agentSessions.error })
      .from(agentSessions)
      .where(inArray(agentSessions.id, ids));
    const failed = rows.find((r) => r.status === 'error');
    if (failed) throw new Error(`session failed: ${failed.error}`);
    if (rows.filter((r) => r.status === 'completed').length === ids.length) break;
    if (Date.now() > deadline) throw new Error('sessions did not finish in 10 minutes');
    await new Promise((r) => setTimeout(r, 10));
  }
  await beforeReads();
  const c = sessionClient(t.app, token);
  return Promise.all(ids.map((id) => c.session(id)));
}

const wallMs = (s: AgentSession) =>
  new Date(s.completedAt!).getTime() - new Date(s.startedAt!).getTime();

async function main(): Promise<void> {
  if (process.env.TEST_DB === 'postgres') countSqlOnPostgres();
  const llm = await startScriptedLlmServer();
  llm.script({
    agent: 'runtime-test',
    phase: 'analyse',
    replies: [{ text: 'Look at wages.', delayMs: MODEL_DELAY_MS }],
  });
  const t = await createTestApp(
    {
      AGENT_MAX_CONCURRENT_SESSIONS: String(SESSIONS * 2),
      AGENT_WORKER_CONCURRENCY: String(WORKERS),
      AGENT_SESSION_TOKEN_BUDGET: '0',
      LLM_PROVIDER: 'openai-compatible',
      LLM_MODEL: 'scripted-model',
      OPENAI_COMPATIBLE_BASE_URL: llm.baseUrl,
    },
    { extraTeams: [runtimeTestTeam] },
  );
  const db = t.ctx.database.kind === 'postgres' ? 'PostgreSQL' : 'PGlite (embedded)';
  if (t.ctx.database.kind === 'pglite') {
    countSqlOnPglite(t.ctx.database.client as unknown as QueryTarget);
  }
  try {
    const { accessToken } = await login(t.app, ADMIN.email, ADMIN.password);
    // Warm-up.
    await waitAllDone(t, accessToken, [await executeQuick(t, accessToken, {})]);

    // 2. One session alone.
    const single: number[] = [];
    for (let i = 0; i < 10; i++) {
      const started = performance.now();
      await waitAllDone(t, accessToken, [await executeQuick(t, accessToken, {})]);
      single.push(performance.now() - started);
    }
    single.sort((a, b) => a - b);

    // 1. Many at once.
    const started = performance.now();
    const ids: string[] = [];
    for (let i = 0; i < SESSIONS; i++) ids.push(await executeQuick(t, accessToken, {}));
    await waitAllDone(t, accessToken, ids);
    const elapsed = (performance.now() - started) / 1000;
    const transitions = SESSIONS * 2;

    // 3. With model calls, one session at a time (overhead, not queueing for capacity).
    const modelSessions = 10;
    const finished: AgentSession[] = [];
    const statementsPerSession: number[] = [];
    let lastStatements: string[] = [];
    for (let i = 0; i < modelSessions; i++) {
      sqlLog.statements = [];
      sqlLog.at = [];
      sqlLog.took = [];
      sqlLog.t0 = performance.now();
      sqlLog.on = true;
      const id = await executeQuick(t, accessToken, { modelInAnalyse: true });
      finished.push(
        ...(await waitAllDone(t, accessToken, [id], async () => {
          // What the runtime writes after the completing write (log line, notification, job
          // done) counts; the benchmark's reads of the session after it do not.
          await new Promise((r) => setTimeout(r, 300));
          sqlLog.on = false;
        })),
      );
      statementsPerSession.push(sqlLog.statements.length);
      lastStatements = sqlLog.statements.map(
        (st, j) =>
          `${sqlLog.at[j]!.toFixed(1).padStart(7)} ms +${sqlLog.took[j]!.toFixed(1).padStart(5)}  ${st}`,
      );
    }
    const modelIds = finished.map((s) => s.sessionId);
    const calls = await t.ctx.db
      .select({ sessionId: llmCalls.sessionId, latencyMs: llmCalls.latencyMs })
      .from(llmCalls)
      .where(inArray(llmCalls.sessionId, modelIds));
    const modelMs = new Map<string, number>();
    for (const c of calls) {
      modelMs.set(c.sessionId!, (modelMs.get(c.sessionId!) ?? 0) + c.latencyMs);
    }
    const rows = finished.map((s) => {
      const wall = wallMs(s);
      const model = modelMs.get(s.sessionId) ?? 0;
      return { wall, model, overhead: wall - model };
    });
    const mean = (f: (r: (typeof rows)[number]) => number) =>
      rows.reduce((n, r) => n + f(r), 0) / rows.length;
    const meanWall = mean((r) => r.wall);
    const meanModel = mean((r) => r.model);
    const meanOverhead = mean((r) => r.overhead);

    console.log(`Agent runtime overhead on ${db}, ${WORKERS} workers in process`);
    console.log(
      `  instant phases: ${SESSIONS} sessions x 2 phases = ${transitions} phase jobs in ${elapsed.toFixed(2)} s ` +
        `-> ${(transitions / elapsed).toFixed(1)} phase transitions/s`,
    );
    console.log(
      `  one session alone (start -> completed, 2 instant phases): p50 ${percentile(single, 50).toFixed(0)} ms, ` +
        `max ${single.at(-1)!.toFixed(0)} ms`,
    );
    console.log(
      `  one session with one ${MODEL_DELAY_MS} ms model call (2 phases, ${modelSessions} runs): ` +
        `wall ${meanWall.toFixed(0)} ms, model ${meanModel.toFixed(0)} ms, runtime ${meanOverhead.toFixed(0)} ms ` +
        `= ${((100 * meanOverhead) / meanModel).toFixed(1)}% of model time ` +
        `(${((100 * meanOverhead) / meanWall).toFixed(1)}% of wall time)`,
    );
    const overheads = rows.map((r) => r.overhead).sort((a, b) => a - b);
    console.log(
      `  runtime per session, each run sorted (ms): ${overheads.map((o) => o.toFixed(0)).join(', ')} ` +
        `-> median ${percentile(overheads, 50).toFixed(0)} ms`,
    );
    statementsPerSession.sort((a, b) => a - b);
    console.log(
      `  SQL statements per session with a model call (start request to 300 ms after completed, 2 phases, ` +
        `the benchmark's polling excluded): median ${percentile(statementsPerSession, 50)}, ` +
        `min ${statementsPerSession[0]}, max ${statementsPerSession.at(-1)}`,
    );
    const kinds = new Map<string, number>();
    for (const line of lastStatements) {
      const st = line.replace(/^\s*[\d.]+ ms \+\s*[\d.NaN]+ {2}/, '');
      kinds.set(kindOf(st), (kinds.get(kindOf(st)) ?? 0) + 1);
    }
    console.log('  by kind, last session:');
    for (const [k, n] of [...kinds].sort((a, b) => b[1] - a[1])) {
      console.log(`    ${String(n).padStart(3)}  ${k.slice(0, 110)}`);
    }
    if (process.env.BENCH_SQL_TRACE) {
      // Each statement with the time it was sent, from the start request.
      for (const st of lastStatements) console.log(`    | ${st.slice(0, 170)}`);
    }
  } finally {
    await t.close();
    await llm.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
