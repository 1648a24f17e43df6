import {
  PGlite,
  parse,
  protocol,
  type QueryOptions,
  type Results,
  type Transaction,
  messages,
} from '@electric-sql/pglite';
import { readReply, type Column } from './pglite-replies';

/**
 * PGlite with named prepared statements: `query` (what Drizzle and pg-boss call) parses and
 * describes a statement once per SQL text, keeps it under a name of its own, and afterwards
 * sends only Bind, Execute and Sync, in one message to the WebAssembly backend. PGlite's own
 * `query` sends an unnamed statement each time (Parse, Describe, Bind, Describe, Execute, Sync
 * as six calls), so PostgreSQL parsed, analysed and planned every statement of every request
 * again; a named one keeps its parse tree and, once PostgreSQL's plan cache settles on a
 * generic plan, its plan (docs/performance.md, API reads).
 *
 * What stays as it was: the same mutexes as PGlite's `query` (no statement runs inside another
 * or inside a transaction of someone else), the same parameter serializers and result parsers,
 * the same errors (PGlite's DatabaseError with query, params and options attached). Statements
 * inside `transaction()` still go PGlite's way. Schema changes are PostgreSQL's plan cache's
 * business (it re-plans a named statement whose tables changed); a statement whose result
 * columns changed, or that no longer exists on the server (DEALLOCATE, DISCARD), is prepared
 * again and run once more. Any other failure of a kept statement drops it, so nothing broken is
 * kept. At most `limit` statements are kept, the least recently used one closed first.
 */

type RowDescription = messages.RowDescriptionMessage;

interface Kept {
  name: string;
  /** The server's types of the parameters, for PGlite's serializers. */
  paramTypes: number[];
  /** The result columns as Describe reported them (undefined: the statement returns none). */
  rowDescription: RowDescription | undefined;
  columns: Column[];
}

/** SQLSTATE 0A000 with this text: the columns of a kept statement's result changed. */
const RESULT_TYPE_CHANGED = 'cached plan must not change result type';
/** SQLSTATE 26000: no prepared statement of that name (dropped by DEALLOCATE or DISCARD). */
const NO_SUCH_STATEMENT = '26000';

/** The protocol messages as one write to the backend. */
const concat = (parts: Uint8Array[]): Uint8Array => Buffer.concat(parts);

const isDatabaseError = (err: unknown): err is messages.DatabaseError =>
  err instanceof messages.DatabaseError;

export interface StatementStats {
  /** Statements parsed and kept. */
  prepared: number;
  /** Runs of a kept statement (binds without a parse). */
  reused: number;
  /** Statements closed to stay within the limit, or dropped after a failure. */
  dropped: number;
  /** Statements kept now. */
  kept: number;
}

export class PreparingPGlite extends PGlite {
  /** In use order, least recently used first (a Map keeps insertion order). */
  readonly #kept = new Map<string, Kept>();
  #sequence = 0;
  #limit = 256;
  readonly #stats = { prepared: 0, reused: 0, dropped: 0 };
  /** Set once anyone listens for notifications: then replies are read PGlite's way. */
  #listening = false;

  /** How many statements to keep at most (default 256). */
  set statementLimit(limit: number) {
    this.#limit = Math.max(1, limit);
  }

  get statementStats(): StatementStats {
    return { ...this.#stats, kept: this.#kept.size };
  }

  override async listen(
    channel: string,
    callback: (payload: string) => void,
    tx?: Transaction,
  ): Promise<(tx?: Transaction) => Promise<void>> {
    this.#listening = true;
    return super.listen(channel, callback, tx);
  }

  override onNotification(callback: (channel: string, payload: string) => void): () => void {
    this.#listening = true;
    return super.onNotification(callback);
  }

  override async query<T>(
    text: string,
    params?: unknown[],
    options?: QueryOptions,
  ): Promise<Results<T>> {
    // A statement that reads or writes a file goes PGlite's way (its blob handling).
    if (options?.blob) return super.query<T>(text, params, options);
    await this._checkReady();
    return this._runExclusiveTransaction(() =>
      this._runExclusiveQuery(() => this.#run<T>(text, params ?? [], options)),
    );
  }

  async #run<T>(text: string, params: unknown[], options: QueryOptions | undefined) {
    const key = options?.paramTypes?.length ? `${options.paramTypes.join(',')}\n${text}` : text;
    let kept = this.#kept.get(key);
    let fresh = false;
    try {
      if (kept === undefined) {
        kept = await this.#prepare(key, text, options);
        fresh = true;
      } else {
        // Most recently used last.
        this.#kept.delete(key);
        this.#kept.set(key, kept);
      }
      try {
        const result = await this.#execute<T>(kept, params, options);
        if (!fresh) this.#stats.reused++;
        return result;
      } catch (err) {
        await this.#drop(key, kept);
        if (
          !fresh &&
          isDatabaseError(err) &&
          (err.code === NO_SUCH_STATEMENT || err.message === RESULT_TYPE_CHANGED)
        ) {
          // An unnamed statement would have been parsed anew: do that, once.
          kept = await this.#prepare(key, text, options);
          return await this.#execute<T>(kept, params, options);
        }
        throw err;
      }
    } catch (err) {
      throw withQuery(err, text, params, options);
    }
  }

  async #prepare(key: string, text: string, options: QueryOptions | undefined): Promise<Kept> {
    const name = `ea_s${++this.#sequence}`;
    let replies: messages.BackendMessage[];
    try {
      replies = await this.execProtocolStream(
        concat([
          protocol.serialize.parse({ name, text, types: options?.paramTypes }),
          protocol.serialize.describe({ type: 'S', name }),
          protocol.serialize.sync(),
        ]),
        { syncToFs: false },
      );
    } catch (err) {
      // A statement that did not parse is not created; close the name anyway, in case the
      // parse went through and the describe did not.
      await this.#close(name);
      throw err;
    }
    let paramTypes: number[] = [];
    let rowDescription: RowDescription | undefined;
    for (const m of replies) {
      if (m.name === 'parameterDescription') {
        paramTypes = (m as messages.ParameterDescriptionMessage).dataTypeIDs;
      } else if (m.name === 'rowDescription') {
        rowDescription = m as RowDescription;
      }
    }
    const columns = (rowDescription?.fields ?? []).map((f) => ({
      name: f.name,
      dataTypeID: f.dataTypeID,
    }));
    const kept: Kept = { name, paramTypes, rowDescription, columns };
    this.#kept.set(key, kept);
    this.#stats.prepared++;
    while (this.#kept.size > this.#limit) {
      const [oldestKey, oldest] = this.#kept.entries().next().value as [string, Kept];
      await this.#drop(oldestKey, oldest);
    }
    return kept;
  }

  async #execute<T>(
    kept: Kept,
    params: unknown[],
    options: QueryOptions | undefined,
  ): Promise<Results<T>> {
    // As PGlite's query: each value through the serializer of its parameter's type.
    const values = params.map((param, i) => {
      if (param === null || param === undefined) return null;
      const oid = kept.paramTypes[i]!;
      const serialize = options?.serializers?.[oid] ?? this.serializers[oid];
      return serialize ? serialize(param) : String(param);
    });
    const message = concat([
      protocol.serialize.bind({ statement: kept.name, values }),
      protocol.serialize.execute({}),
      protocol.serialize.sync(),
    ]);
    let result: Results | undefined;
    if (this.#listening) {
      // PGlite's own reading delivers the notifications a statement may bring.
      result = this.#readParsed(
        kept,
        await this.execProtocolStream(message, { syncToFs: false }),
        options,
      );
    } else {
      const chunks: Uint8Array[] = [];
      await this.execProtocolRawStream(message, {
        syncToFs: false,
        // A view into WebAssembly memory, valid only during the call.
        onRawData: (bytes) => chunks.push(bytes.slice()),
      });
      const raw = chunks.length === 1 ? chunks[0]! : concat(chunks);
      const buffer = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
      result = readReply(buffer, kept.columns, this.parsers, options);
      result ??= this.#readParsed(kept, this.#parseRaw(raw, options), options);
    }
    await this.syncToFs();
    // As PGlite's query: a file written by COPY ... TO '/dev/blob' comes with the result.
    const blob = await this._getWrittenBlob();
    if (blob) (result as { blob?: Blob }).blob = blob;
    return result as Results<T>;
  }

  /** A reply in PGlite's messages, read as PGlite's query reads it. */
  #readParsed(
    kept: Kept,
    replies: messages.BackendMessage[],
    options: QueryOptions | undefined,
  ): Results {
    // Execute sends no row description: the one Describe gave at the parse stands for it.
    const all = kept.rowDescription ? [kept.rowDescription, ...replies] : replies;
    return parse.parseResults(all, this.parsers, options)[0]!;
  }

  /**
   * A reply with more than rows in it (an error, a notice), decoded by PGlite's protocol parser
   * and handled as its execProtocol does: notices to `onNotice` (and the console when
   * debugging), the first error thrown.
   */
  #parseRaw(raw: Uint8Array, options: QueryOptions | undefined): messages.BackendMessage[] {
    const replies: messages.BackendMessage[] = [];
    let error: messages.DatabaseError | undefined;
    new protocol.Parser().parse(raw, (msg) => {
      if (error) return;
      if (msg instanceof messages.DatabaseError) {
        error = msg;
        return;
      }
      if (msg instanceof messages.NoticeMessage) {
        if (this.debug > 0) console.warn(msg);
        options?.onNotice?.(msg);
      }
      replies.push(msg);
    });
    if (error) throw error;
    return replies;
  }

  /** Forgets a kept statement and closes it on the server. */
  async #drop(key: string, kept: Kept): Promise<void> {
    if (this.#kept.get(key) === kept) this.#kept.delete(key);
    this.#stats.dropped++;
    await this.#close(kept.name);
  }

  /** Closes a named statement; a failure (none of that name) is ignored. */
  async #close(name: string): Promise<void> {
    await this.execProtocolStream(
      concat([protocol.serialize.close({ type: 'S', name }), protocol.serialize.sync()]),
      { syncToFs: false, throwOnError: false },
    );
  }
}

/** As PGlite's errors: the statement, its values and options attached. */
function withQuery(err: unknown, query: string, params: unknown[], options?: QueryOptions) {
  if (isDatabaseError(err)) {
    Object.assign(err, { query, params, queryOptions: options });
  }
  return err;
}
