/**
 * The whole database schema. Each domain keeps its tables in its own file under schema/;
 * drizzle-kit reads this index to generate migrations (npm run db:generate).
 */
export * from './schema/accounts';
export * from './schema/public-site';
export * from './schema/mail';
export * from './schema/llm';
export * from './schema/projects';
export * from './schema/datasets';
export * from './schema/settings';
export * from './schema/documents';
export * from './schema/notifications';
export * from './schema/agents';
export * from './schema/platform';
export * from './schema/workflows';
export * from './schema/presence';
export * from './schema/usage';
