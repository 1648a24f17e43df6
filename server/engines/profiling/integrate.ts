import type { IntegrationSpec, TransformReport } from '../../../common/teams/data';
import { familyOf } from './columns';
import type { DuckDb } from './duckdb';
import { freshName, Pipeline, requireColumns } from './pipeline';
import { ident, parquet } from './sql';

/**
 * Data Integration: join, union or intersect two stored datasets on chosen keys, written as a
 * new Parquet file (see integrationSpecSchema for what each method keeps). Keys of different
 * kinds (a year as number here and as text there) are compared as text.
 */
export async function integrate(
  db: DuckDb,
  leftFile: string,
  rightFile: string,
  spec: Required<Pick<IntegrationSpec, 'method' | 'keys'>> & IntegrationSpec,
  out: string,
): Promise<TransformReport> {
  return db.withConnection(async (conn) => {
    await conn.run(
      `CREATE OR REPLACE TEMP VIEW l AS SELECT *, row_number() OVER () AS __lrid FROM ${parquet(leftFile)}`,
    );
    await conn.run(
      `CREATE OR REPLACE TEMP VIEW r AS SELECT *, row_number() OVER () AS __rrid FROM ${parquet(rightFile)}`,
    );
    const p = new Pipeline(conn, 'l');
    const leftCols = (await p.columns()).filter((c) => c.name !== '__lrid');
    p.current = 'r';
    const rightCols = (await p.columns()).filter((c) => c.name !== '__rrid');
    const lk = requireColumns(
      leftCols,
      spec.keys.map((k) => k.left),
      'The first dataset',
    );
    const rk = requireColumns(
      rightCols,
      spec.keys.map((k) => k.right),
      'The second dataset',
    );

    const asText: boolean[] = lk.map((c, i) => familyOf(c.type) !== familyOf(rk[i]!.type));
    const key = (side: 'l' | 'r', i: number) => {
      const col = `${side}.${ident(side === 'l' ? lk[i]!.name : rk[i]!.name)}`;
      return asText[i] ? `${col}::VARCHAR` : col;
    };
    const on = lk.map((_, i) => `${key('l', i)} = ${key('r', i)}`).join(' AND ');
    const notes: string[] = [];
    asText.forEach((t, i) => {
      if (t)
        notes.push(
          `Keys ${lk[i]!.name} and ${rk[i]!.name} have different types and were compared as text.`,
        );
    });

    const method = spec.method;
    if (method === 'join') {
      const joinType = spec.joinType ?? 'inner';
      const taken = new Set(leftCols.map((c) => c.name));
      const rightKeys = new Set(rk.map((c) => c.name));
      const select = [
        ...leftCols.map((c) => {
          const i = lk.findIndex((k) => k.name === c.name);
          // A full join's right-only rows have their key on the right side only.
          return i >= 0 && joinType === 'full'
            ? `coalesce(${key('l', i)}, ${key('r', i)}) AS ${ident(c.name)}`
            : `l.${ident(c.name)}`;
        }),
        ...rightCols
          .filter((c) => !rightKeys.has(c.name))
          .map((c) => {
            const name = taken.has(c.name)
              ? freshName(`${c.name}_right`, taken)
              : freshName(c.name, taken);
            return `r.${ident(c.name)} AS ${ident(name)}`;
          }),
        'row_number() OVER (ORDER BY l.__lrid NULLS LAST, r.__rrid) AS __rid',
      ];
      await p.step(
        () => `SELECT ${select.join(', ')} FROM l ${joinType.toUpperCase()} JOIN r ON ${on}`,
      );
    } else if (method === 'intersect') {
      await p.step(
        () =>
          `SELECT ${leftCols.map((c) => `l.${ident(c.name)}`).join(', ')}, l.__lrid AS __rid FROM l SEMI JOIN r ON ${on}`,
      );
    } else {
      // union: the right side's key columns take the left side's names, then rows align by name.
      const rename = new Map(rk.map((c, i) => [c.name, lk[i]!.name]));
      const rightSelect = rightCols
        .map((c) => `r.${ident(c.name)} AS ${ident(rename.get(c.name) ?? c.name)}`)
        .join(', ');
      const offset = `(SELECT count(*) FROM l)`;
      await p.step(
        () =>
          `SELECT ${leftCols.map((c) => `l.${ident(c.name)}`).join(', ')}, l.__lrid AS __rid FROM l
           UNION ALL BY NAME
           SELECT ${rightSelect}, r.__rrid + ${offset} AS __rid FROM r ANTI JOIN l ON ${on}`,
      );
    }
    const result = await p.write(out);
    const leftRows = await new Pipeline(conn, 'l').count();
    const rightRows = await new Pipeline(conn, 'r').count();
    const keys = lk.map((c, i) => (c.name === rk[i]!.name ? c.name : `${c.name} = ${rk[i]!.name}`));
    notes.unshift(
      `${method} of ${leftRows} and ${rightRows} rows on ${keys.join(', ')}: ${result.rows} rows.`,
    );
    if (result.rows === 0) notes.push('No rows matched: check that the keys hold the same values.');
    return { ...result, notes };
  });
}
