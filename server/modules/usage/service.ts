import {
  DEFAULT_MODEL_PRICES,
  DEFAULT_PRICES_AS_OF,
  priceKey,
  priceOf,
  type ModelPrice,
  type ModelPrices,
  type PricedModel,
  type PriceTable,
  type SessionsUsage,
  type UpdateModelPricesRequest,
  type UsageReport,
  type UsageTotals,
} from '../../../common/usage';
import type { USER_ROLES } from '../../../common/constants';
import { sumTotals, totalsByKey, totalsOf } from './cost';
import type { UsageStore } from './store';

export interface UsageActor {
  id: string;
  role: (typeof USER_ROLES)[number];
}

export interface UsageServiceDeps {
  store: UsageStore;
  /** The server's LLM_PRICES_JSON (config.llm.prices), over the defaults. */
  serverPrices: Readonly<Record<string, ModelPrice>> | undefined;
  /**
   * A session as the caller may read it (the agent runtime's rights: owner, project members,
   * administrators; 404 for anybody else).
   */
  readSession(actor: UsageActor, sessionId: string): Promise<{ ownerId: string }>;
  /** The registered teams' ids and labels. */
  teams: ReadonlyArray<{ id: string; label: string }>;
}

const OUTSIDE_SESSIONS = 'Outside team sessions (connection tests, deleted sessions)';

const byTokens = (a: { totalTokens: number }, b: { totalTokens: number }) =>
  b.totalTokens - a.totalTokens;

/**
 * What the model cost: usage of a session, of a user, of the whole server, from llm_calls' token
 * counts priced when read. Prices: the built-in defaults, then the server's LLM_PRICES_JSON, then
 * the user's own (a session's cost uses its owner's prices; the admin report the server's).
 */
export function createUsageService(deps: UsageServiceDeps) {
  const { store } = deps;
  const server: Record<string, ModelPrice> = Object.fromEntries(
    Object.entries(deps.serverPrices ?? {}).map(([m, p]) => [priceKey(m), p]),
  );
  const serverTable: PriceTable = { ...DEFAULT_MODEL_PRICES, ...server };
  const labels = new Map(deps.teams.map((t) => [t.id, t.label]));

  const withOwn = (own: ReadonlyArray<{ model: string } & ModelPrice>): PriceTable => ({
    ...serverTable,
    ...Object.fromEntries(own.map((p) => [p.model, { input: p.input, output: p.output }])),
  });

  async function tableOf(userId: string): Promise<PriceTable> {
    return withOwn(await store.userPrices(userId));
  }

  async function report(
    filter: { userId: string } | 'all',
    prices: PriceTable,
  ): Promise<Omit<UsageReport, 'prices'>> {
    const [months, teams, models] = await Promise.all([
      store.grouped(filter, 'month'),
      store.grouped(filter, 'team'),
      store.grouped(filter, 'model'),
    ]);
    const byModel = totalsByKey(models, prices)
      .map(({ key, totals }) => ({ model: key ?? '', ...totals }))
      .sort(byTokens);
    return {
      total: totalsOf(models, prices),
      byMonth: totalsByKey(months, prices)
        .map(({ key, totals }) => ({ month: key ?? '', ...totals }))
        .sort((a, b) => b.month.localeCompare(a.month)),
      byTeam: totalsByKey(teams, prices)
        .map(({ key, totals }) => ({
          teamId: key,
          teamName: key === null ? OUTSIDE_SESSIONS : (labels.get(key) ?? key),
          ...totals,
        }))
        .sort(byTokens),
      byModel,
    };
  }

  async function prices(userId: string): Promise<ModelPrices> {
    const [own, used] = await Promise.all([
      store.userPrices(userId),
      store.grouped({ userId }, 'model'),
    ]);
    const table = withOwn(own);
    const models = new Map<string, PricedModel>();
    for (const [model, p] of Object.entries(DEFAULT_MODEL_PRICES)) {
      models.set(model, { model, ...p, source: 'default', fallback: null });
    }
    for (const [model, p] of Object.entries(server)) {
      models.set(model, { model, ...p, source: 'server', fallback: null });
    }
    for (const p of own) {
      const before = models.get(p.model);
      models.set(p.model, {
        model: p.model,
        input: p.input,
        output: p.output,
        source: 'user',
        fallback: before ? { input: before.input, output: before.output } : null,
      });
    }
    const unpriced = [
      ...new Set(used.filter((u) => !priceOf(table, u.model)).map((u) => u.model)),
    ].sort();
    return {
      models: [...models.values()].sort((a, b) => a.model.localeCompare(b.model)),
      unpriced,
      defaultsAsOf: DEFAULT_PRICES_AS_OF,
    };
  }

  return {
    /** The prices that apply to the user, with where each comes from. */
    prices,

    /** Replaces the user's own prices (model ids stored lower-cased, as they are looked up). */
    async setPrices(
      userId: string,
      input: { prices: UpdateModelPricesRequest['prices'] },
    ): Promise<ModelPrices> {
      await store.replacePrices(
        userId,
        input.prices.map((p) => ({ model: priceKey(p.model), input: p.input, output: p.output })),
      );
      return prices(userId);
    },

    /**
     * The usage of sessions the actor may read (one session's screen, or a customized workflow's
     * steps), each priced with its owner's prices. One unreadable id: 404 for all.
     */
    async sessions(actor: UsageActor, sessionIds: readonly string[]): Promise<SessionsUsage> {
      const ids = [...new Set(sessionIds)];
      const owners = new Map<string, string>();
      for (const id of ids) owners.set(id, (await deps.readSession(actor, id)).ownerId);
      const ownPrices = await store.pricesOfUsers([...new Set(owners.values())]);
      const tables = new Map<string, PriceTable>();
      for (const owner of new Set(owners.values())) {
        tables.set(owner, withOwn(ownPrices.filter((p) => p.userId === owner)));
      }
      const rows = await store.grouped({ sessionIds: ids }, 'session');
      const perRow = rows.map((r) => ({
        model: r.model,
        totals: totalsOf([r], tables.get(owners.get(r.key ?? '') ?? '') ?? serverTable),
      }));
      const models = new Map<string, UsageTotals[]>();
      for (const r of perRow) models.set(r.model, [...(models.get(r.model) ?? []), r.totals]);
      return {
        total: sumTotals(perRow.map((r) => r.totals)),
        byModel: [...models]
          .map(([model, parts]) => ({ model, ...sumTotals(parts) }))
          .sort(byTokens),
      };
    },

    /** The user's own calls by month, team and model, priced with the user's prices. */
    async forUser(userId: string): Promise<UsageReport> {
      return { ...(await report({ userId }, await tableOf(userId))), prices: 'user' };
    },

    /** Every call on the server, priced with the server's prices (administrators). */
    async forServer(): Promise<UsageReport> {
      const [base, keys, users] = await Promise.all([
        report('all', serverTable),
        store.grouped('all', 'keySource'),
        store.usersWithCalls(),
      ]);
      return {
        ...base,
        byKeySource: totalsByKey(keys, serverTable).map(({ key, totals }) => ({
          keySource: key === 'user' ? ('user' as const) : ('server' as const),
          ...totals,
        })),
        users,
        prices: 'server',
      };
    },
  };
}
export type UsageService = ReturnType<typeof createUsageService>;
