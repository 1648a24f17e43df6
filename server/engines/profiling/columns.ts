import type { ColumnKind } from '../../../common/teams/data';
import type { ColumnInfo } from './ingest';
import { ident } from './sql';

/**
 * How each storage type is profiled. DuckDB's type decides the family; the kind (numeric,
 * categorical, boolean, ...) is settled once the values are counted (see `finalKind`).
 */

export type Family = 'numeric' | 'boolean' | 'datetime' | 'string' | 'unsupported';

const NUMERIC =
  /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|DOUBLE|REAL|DECIMAL(\(\d+,\s*\d+\))?)$/;
const DATETIME = /^(DATE|TIMESTAMP(_S|_MS|_NS)?|TIMESTAMP WITH TIME ZONE|TIMESTAMP\(\d\))$/;
const STRINGISH = /^(VARCHAR|UUID|TIME|TIME WITH TIME ZONE|INTERVAL|JSON|ENUM\(.*\))$/;

export function familyOf(storageType: string): Family {
  const t = storageType.toUpperCase();
  if (NUMERIC.test(t)) return 'numeric';
  if (t === 'BOOLEAN') return 'boolean';
  if (DATETIME.test(t)) return 'datetime';
  if (STRINGISH.test(t) || t.startsWith('ENUM')) return 'string';
  return 'unsupported';
}

export interface ProfiledColumn extends ColumnInfo {
  index: number;
  family: Family;
  /** The column in SQL, as the type its statistics are computed on. */
  expr: string;
}

export function profiledColumns(columns: ColumnInfo[]): ProfiledColumn[] {
  return columns.map((c, index) => {
    const family = familyOf(c.type);
    const col = ident(c.name);
    const expr =
      family === 'numeric'
        ? `${col}::DOUBLE`
        : family === 'string'
          ? `${col}::VARCHAR`
          : family === 'datetime'
            ? `${col}::TIMESTAMP`
            : col;
    return { ...c, index, family, expr };
  });
}

/** Mean length from which a string column is free text rather than categories. */
export const TEXT_MEAN_LENGTH = 40;

/**
 * The kind ydata-profiling would give: numeric columns holding only 0 and 1 are boolean
 * indicators; string columns with long values are text.
 */
export function finalKind(
  family: Family,
  facts: { distinct: number; min?: number; max?: number; meanLength?: number },
): ColumnKind {
  switch (family) {
    case 'numeric':
      // Exactly the two values 0 and 1: an indicator (dummy) variable.
      return facts.distinct === 2 && facts.min === 0 && facts.max === 1 ? 'boolean' : 'numeric';
    case 'boolean':
      return 'boolean';
    case 'datetime':
      return 'datetime';
    case 'string':
      return (facts.meanLength ?? 0) >= TEXT_MEAN_LENGTH ? 'text' : 'categorical';
    default:
      return 'unsupported';
  }
}
