import { PGlite, type QueryOptions, type Results } from '@electric-sql/pglite';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/db';
import { PreparingPGlite } from './pglite-statements';

/**
 * The named-statement layer on PGlite: same results and errors as PGlite's own `query`, each
 * statement parsed once, and nothing broken kept after a schema change or a failure.
 */
let db: PreparingPGlite;
/** A second database whose statements go through PGlite's own query (unnamed each time). */
let other: PGlite;
const plain = {
  query: <T>(text: string, params?: unknown[], options?: QueryOptions) =>
    PGlite.prototype.query.call(other, text, params, options) as Promise<Results<T>>,
  exec: (text: string) => other.exec(text),
};

beforeAll(async () => {
  // As the tests' databases are made (test/db.ts): PreparingPGlite, from a template.
  const [a, b] = await Promise.all([createTestDatabase(), createTestDatabase()]);
  if (!(a.kind === 'pglite' && b.kind === 'pglite')) throw new Error('a PGlite test file');
  expect(a.client).toBeInstanceOf(PreparingPGlite);
  db = a.client as PreparingPGlite;
  other = b.client;
});
afterAll(async () => {
  await Promise.all([db.closed ? undefined : db.close(), other.close()]);
});

const SETUP = `
  drop table if exists t;
  create table t (id serial primary key, name text not null unique, n numeric, at timestamptz,
                  tags text[], doc jsonb, raw bytea, ok boolean);`;
beforeEach(async () => {
  await db.exec(SETUP);
  await plain.exec(SETUP);
});

/** Names of the statements kept on the server (the simple protocol: not through the layer). */
async function serverStatements(): Promise<string[]> {
  const [result] = await db.exec('select name from pg_prepared_statements order by name');
  return result!.rows.map((r) => (r as { name: string }).name);
}

async function both<T>(text: string, params?: unknown[], options?: QueryOptions) {
  const [ours, theirs] = await Promise.all([
    db.query<T>(text, params, options),
    plain.query<T>(text, params, options),
  ]);
  return { ours, theirs };
}

const strip = (r: Results<unknown>) => ({ ...r, blob: undefined });

describe('PreparingPGlite', () => {
  it('answers as PGlite does: rows, fields, counts, parsers, array rows', async () => {
    const at = new Date('2026-11-27T12:00:00.000Z');
    const insert = `insert into t (name, n, at, tags, doc, raw, ok) values ($1, $2, $3, $4, $5, $6, $7)
                    returning *`;
    const values = ['a', 1.5, at, ['x', 'y'], { k: [1, 'two'] }, new Uint8Array([1, 2]), true];
    const inserted = await both(insert, values);
    expect(strip(inserted.ours)).toEqual(strip(inserted.theirs));
    expect(inserted.ours.rows[0]).toMatchObject({ name: 'a', tags: ['x', 'y'], ok: true });

    const nulls = await both(insert, ['b', null, null, null, null, null, undefined]);
    expect(strip(nulls.ours)).toEqual(strip(nulls.theirs));

    const update = await both('update t set n = n + 1 where n is not null');
    expect(strip(update.ours)).toEqual(strip(update.theirs));
    expect(update.ours.affectedRows).toBe(1);

    const options: QueryOptions = { rowMode: 'array', parsers: { 1184: (v: string) => `at ${v}` } };
    const arrays = await both('select name, at, doc from t order by id', [], options);
    expect(strip(arrays.ours)).toEqual(strip(arrays.theirs));
    expect(arrays.ours.rows[0]).toEqual(['a', expect.stringMatching(/^at /), { k: [1, 'two'] }]);

    const empty = await both('select * from t where name = $1', ['none']);
    expect(strip(empty.ours)).toEqual(strip(empty.theirs));

    const ddl = await both('create index t_n on t (n)');
    expect(strip(ddl.ours)).toEqual(strip(ddl.theirs));
  });

  it('parses a statement once and then only binds it', async () => {
    const before = db.statementStats;
    for (const name of ['p', 'q', 'r']) {
      await db.query('insert into t (name) values ($1)', [name]);
    }
    const rows = await db.query<{ name: string }>('select name from t where name > $1 order by 1', [
      'p',
    ]);
    expect(rows.rows.map((r) => r.name)).toEqual(['q', 'r']);
    const after = db.statementStats;
    expect(after.prepared - before.prepared).toBe(2);
    expect(after.reused - before.reused).toBe(2);
  });

  it('follows a schema change: new columns, a changed type, a dropped and recreated table', async () => {
    await db.query("insert into t (name) values ('a')");
    const read = () => db.query<Record<string, unknown>>('select * from t');
    expect(Object.keys((await read()).rows[0]!)).not.toContain('extra');

    await db.exec("alter table t add column extra text default 'e'");
    expect((await read()).rows[0]).toMatchObject({ name: 'a', extra: 'e' });

    await db.exec('alter table t alter column extra drop default');
    await db.exec('alter table t alter column extra type integer using 7');
    expect((await read()).rows[0]).toMatchObject({ extra: 7 });

    await db.exec('drop table t');
    await expect(read()).rejects.toMatchObject({ code: '42P01', query: 'select * from t' });
    await db.exec(SETUP);
    await db.query("insert into t (name) values ('again')");
    expect((await read()).rows).toEqual([expect.objectContaining({ name: 'again' })]);
  });

  it('keeps nothing broken after a failure, and fails as PGlite does', async () => {
    const kept = await serverStatements();
    const syntax = await Promise.allSettled([
      db.query('selec 1', [1]),
      plain.query('selec 1', [1]),
    ]);
    const [ours, theirs] = syntax.map((s) => (s as PromiseRejectedResult).reason as object);
    expect(ours).toMatchObject({ code: '42601', query: 'selec 1', params: [1] });
    expect(ours).toEqual(theirs);
    expect(await serverStatements()).toEqual(kept);

    // A statement that fails on its values: dropped, then prepared again for the next values.
    const divide = 'select 10 / $1::int as q';
    await expect(db.query(divide, [0])).rejects.toMatchObject({ code: '22012' });
    expect((await db.query(divide, [5])).rows).toEqual([{ q: 2 }]);
    await expect(db.query(divide, [0])).rejects.toMatchObject({ code: '22012' });
    expect((await db.query(divide, [2])).rows).toEqual([{ q: 5 }]);

    // A constraint violation: the same error as PGlite's.
    const insert = 'insert into t (name) values ($1)';
    await both(insert, ['dup']);
    const dup = await Promise.allSettled([db.query(insert, ['dup']), plain.query(insert, ['dup'])]);
    expect(dup.map((d) => d.status)).toEqual(['rejected', 'rejected']);
    const [dupOurs, dupTheirs] = dup.map((d) => (d as PromiseRejectedResult).reason as object);
    expect(dupOurs).toEqual(dupTheirs);
    expect(dupOurs).toMatchObject({ code: '23505' });
  });

  it('prepares again a statement the server dropped (DEALLOCATE ALL)', async () => {
    const read = () => db.query<{ n: number }>('select count(*)::int as n from t');
    expect((await read()).rows).toEqual([{ n: 0 }]);
    await db.exec('deallocate all');
    expect(await serverStatements()).toEqual([]);
    expect((await read()).rows).toEqual([{ n: 0 }]);
    expect((await serverStatements()).length).toBe(1);
  });

  it('keeps at most its limit, closing the least recently used on the server', async () => {
    await db.exec('deallocate all');
    db.statementLimit = 3;
    try {
      const before = db.statementStats;
      for (let i = 0; i < 6; i++) await db.query(`select ${i} as v`);
      expect((await serverStatements()).length).toBe(3);
      const after = db.statementStats;
      expect(after.kept).toBe(3);
      expect(after.prepared - before.prepared).toBe(6);
      // The three latest are the ones kept: the one used last is reused, the first is not.
      await db.query('select 5 as v');
      expect(db.statementStats.reused - after.reused).toBe(1);
      await db.query('select 0 as v');
      expect(db.statementStats.prepared - after.prepared).toBe(1);
    } finally {
      db.statementLimit = 256;
    }
  });

  it('runs concurrent statements one at a time and never inside a transaction', async () => {
    const seen: string[] = [];
    const transaction = db.transaction(async (tx) => {
      await tx.query("insert into t (name) values ('uncommitted')");
      // Give the concurrent reads every chance to run now.
      await new Promise((r) => setTimeout(r, 20));
      await tx.query("update t set name = 'committed' where name = 'uncommitted'");
    });
    const reads = Array.from({ length: 40 }, (_, i) =>
      db.query<{ name: string; i: number }>('select name, $1::int as i from t', [i]).then((r) => {
        for (const row of r.rows) seen.push(row.name);
        expect(r.rows.every((row) => row.i === i)).toBe(true);
      }),
    );
    await Promise.all([transaction, ...reads]);
    expect(seen).not.toContain('uncommitted');
  });

  it('passes notices to onNotice, and notifications to listeners', async () => {
    const notices: string[] = [];
    const onNotice = (n: { message?: string }) => notices.push(n.message ?? '');
    const notice = "do $$ begin raise notice 'hello'; end $$";
    await db.query(notice, [], { onNotice });
    await db.query(notice, [], { onNotice });
    expect(notices).toEqual(['hello', 'hello']);

    const payloads: string[] = [];
    await db.listen('ch', (p) => payloads.push(p));
    await db.query('select pg_notify($1, $2)', ['ch', 'one']);
    await db.query('select pg_notify($1, $2)', ['ch', 'two']);
    await new Promise((r) => setTimeout(r, 10));
    expect(payloads).toEqual(['one', 'two']);
  });

  // Last: it closes the instance.
  it('refuses statements once closed', async () => {
    await db.query('select 1');
    await db.close();
    await expect(db.query('select 1')).rejects.toThrow(/closed/);
  });
});
