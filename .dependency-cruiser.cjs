/**
 * The import boundaries of the repository (docs/architecture.md §2 and §10), checked by
 * `npm run deps` (part of `npm run check`). test/boundaries.test.ts runs these same rules on
 * fixtures with deliberate violations, so a rule that stops matching fails a test.
 *
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'Import cycles (type-only imports count) make load order fragile and modules impossible ' +
        'to read alone. Cut them with a types-only file (server/agents/runtime/types.ts, ' +
        'server/platform/api.ts).',
      from: {},
      to: { circular: true },
    },
    {
      name: 'web-not-to-server',
      severity: 'error',
      comment:
        'The browser bundle never imports server code; what both sides need lives in common/.',
      from: { path: '^web/' },
      to: { path: '^server/' },
    },
    {
      name: 'common-not-to-server-or-web',
      severity: 'error',
      comment: 'common/ is shared by browser and server and depends on neither.',
      from: { path: '^common/' },
      to: { path: '^(server|web)/' },
    },
    {
      name: 'routes-not-to-database',
      severity: 'error',
      comment:
        'Route files parse, authorise and call a service; database access stays in store.ts ' +
        '(server/db and drizzle-orm are not imported by routes).',
      from: { path: '(^|/)routes(\\.ts$|/)' },
      to: { path: '^server/db/|(^|/)node_modules/drizzle-orm/' },
    },
    {
      name: 'server-team-not-to-other-team',
      severity: 'error',
      comment:
        'A team folder never imports another team. What teams share is the kit ' +
        '(server/agents/kit), a connector or engine (server/sources, server/engines) or a ' +
        'contract (common/teams/shared.ts); there is no shared team folder on the server.',
      from: { path: '^server/agents/teams/([^/]+)/' },
      to: { path: '^server/agents/teams/[^/]+/', pathNot: '^server/agents/teams/$1/' },
    },
    {
      name: 'team-runtime-only-through-kit',
      severity: 'error',
      comment:
        'A team reaches the agent runtime only through the kit (server/agents/kit/index.ts), ' +
        'never server/agents/runtime, server/agents/llm or the runtime entry, so the runtime ' +
        'can change behind the kit.',
      from: { path: '^server/agents/teams/' },
      to: {
        path: '^server/agents/',
        pathNot: '^server/agents/(teams/|kit/index\\.ts$)',
      },
    },
    {
      name: 'team-not-to-data-layer',
      severity: 'error',
      comment:
        "A team's code reaches the platform's data through ctx.workspace (the owner's rights " +
        'checked), never the database, a module or the application context; its tests may.',
      from: { path: '^server/agents/teams/', pathNot: '\\.test\\.tsx?$' },
      to: { path: '^server/(db|modules)/|^server/[^/]+\\.ts$|(^|/)node_modules/drizzle-orm/' },
    },
    {
      name: 'engines-sources-not-to-agents',
      severity: 'error',
      comment:
        'Engines and connectors sit below the agents: they declare themselves with ' +
        'server/platform/services.ts and env-fragments.ts, and teams import them, never the ' +
        'other way round.',
      from: { path: '^server/(engines|sources)/' },
      to: { path: '^server/agents/' },
    },
    {
      name: 'modules-not-to-agents',
      severity: 'error',
      comment:
        'Modules never import the agent runtime or the model layer: what they need of it ' +
        'comes through AppContext (ctx.agents, ctx.modelStatus; their types in server/platform ' +
        'or server/agents/runtime/types.ts, reached through server/context.ts).',
      from: { path: '^server/modules/' },
      to: { path: '^server/agents/' },
    },
    {
      name: 'db-not-above',
      severity: 'error',
      comment:
        'server/db (connection, schema, migrations) is the bottom of the server: it imports ' +
        'common/ and itself only, so every layer may import it and it can be read alone.',
      from: { path: '^server/db/' },
      to: { path: '^server/', pathNot: '^server/db/' },
    },
    {
      name: 'web-team-not-to-other-team',
      severity: 'error',
      comment: 'A team screen never imports another team; shared UI lives in web/teams/shared/.',
      from: { path: '^web/teams/([^/]+)/' },
      to: { path: '^web/teams/[^/]+/', pathNot: '^web/teams/($1|shared)/' },
    },
    {
      name: 'common-team-not-to-other-team',
      severity: 'error',
      comment:
        "A team's contract (common/teams/<team>.ts or common/teams/<team>/) never imports " +
        "another team's; shared schemas live in common/teams/shared.",
      from: { path: '^common/teams/([^/.]+)' },
      to: {
        path: '^common/teams/[^/.]+',
        pathNot: '^common/teams/($1|shared)(/|\\.[cm]?tsx?$)',
      },
    },
    {
      name: 'server-not-to-tests',
      severity: 'error',
      comment:
        'Production code never imports test helpers (test/, e2e/, bench/); tests may import ' +
        'the server, and server/**/*.test.ts may import test/.',
      from: { path: '^server/', pathNot: '\\.test\\.tsx?$' },
      to: { path: '^(test|e2e|bench)/' },
    },
  ],
  options: {
    // The fixtures of test/boundaries.test.ts hold deliberate violations.
    exclude: { path: '^test/fixtures/boundaries/' },
    doNotFollow: { path: 'node_modules' },
    // Count `import type` too: a type-only cycle is still a cycle for a reader.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs', '.cjs', '.json', '.d.ts'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    skipAnalysisNotInRules: true,
    reporterOptions: { text: { highlightFocused: true } },
  },
};
