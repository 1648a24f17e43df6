/**
 * The whole database schema. Each domain keeps its tables in its own file under schema/;
 * drizzle-kit reads this index to generate migrations (npm run db:generate).
 */
export * from './schema/accounts';
export * from './schema/public-site';
export * from './schema/mail';
