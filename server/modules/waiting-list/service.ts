import { stringify } from 'csv-stringify';
import { Readable } from 'node:stream';
import { neutraliseCsvCell } from '../../../common/csv';
import type { WaitingListEntry, WaitingListRequest } from '../../../common/waiting-list';
import type { WaitingListRow } from '../../db/schema';
import { conflict } from '../../platform/errors';
import type { WaitingListStore } from './store';

export function toEntry(row: WaitingListRow): WaitingListEntry {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    ...(row.affiliation ? { affiliation: row.affiliation } : {}),
    ...(row.interestArea ? { interestArea: row.interestArea } : {}),
    createdAt: row.createdAt.toISOString(),
  };
}

export const CSV_COLUMNS = [
  'id',
  'name',
  'email',
  'affiliation',
  'interestArea',
  'createdAt',
] as const;

export function createWaitingListService(store: WaitingListStore) {
  return {
    async join(input: WaitingListRequest): Promise<WaitingListEntry> {
      const row = await store.insert({
        name: input.name,
        email: input.email,
        affiliation: input.affiliation ?? null,
        interestArea: input.interestArea ?? null,
      });
      if (!row) throw conflict('This email is already on the waiting list');
      return toEntry(row);
    },

    async list(limit: number, offset: number) {
      const { rows, total } = await store.list(limit, offset);
      return { entries: rows.map(toEntry), total };
    },

    /** RFC 4180 CSV (CRLF line ends, quoted where needed) with formula cells neutralised. */
    exportCsv(): Readable {
      const csv = stringify({
        header: true,
        columns: [...CSV_COLUMNS],
        record_delimiter: 'windows',
        // csv-stringify quotes a field only for the record delimiter itself (CRLF); a lone LF
        // or CR inside a field (a multi-line affiliation) must be quoted too.
        quoted_match: /[\r\n]/,
        cast: { string: neutraliseCsvCell },
      });
      const rows = Readable.from(
        (async function* () {
          for await (const row of store.all()) {
            const e = toEntry(row);
            yield [e.id, e.name, e.email, e.affiliation ?? '', e.interestArea ?? '', e.createdAt];
          }
        })(),
        { objectMode: true },
      );
      rows.on('error', (err) => csv.destroy(err));
      return rows.pipe(csv);
    },
  };
}
