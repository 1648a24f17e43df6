import type { SocketFactory, SocketLike, Timers } from '../../../api/ws';

/**
 * A scripted WebSocket for unit tests: records what the client sends and lets the test open,
 * close and deliver messages by hand.
 */
export class FakeSocket implements SocketLike {
  readyState = 0;
  onopen: ((ev: Event) => unknown) | null = null;
  onclose: ((ev: CloseEvent) => unknown) | null = null;
  onerror: ((ev: Event) => unknown) | null = null;
  onmessage: ((ev: MessageEvent) => unknown) | null = null;
  readonly sent: string[] = [];
  closedByClient = false;

  constructor(readonly url: string) {}

  send(data: string): void {
    if (this.readyState !== 1) throw new Error('not open');
    this.sent.push(data);
  }

  close(): void {
    this.closedByClient = true;
    this.readyState = 3;
  }

  /** The messages sent, parsed. */
  get sentMessages(): Array<Record<string, unknown>> {
    return this.sent.map((s) => JSON.parse(s) as Record<string, unknown>);
  }

  serverOpen(): void {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }

  serverSend(data: unknown): void {
    const text = typeof data === 'string' ? data : JSON.stringify(data);
    this.onmessage?.(new MessageEvent('message', { data: text }));
  }

  serverClose(code = 1006): void {
    this.readyState = 3;
    this.onclose?.({ code, reason: '', wasClean: code === 1000 } as CloseEvent);
  }
}

/** A socket factory that keeps every socket it made. */
export function fakeSocketFactory(): { create: SocketFactory; sockets: FakeSocket[] } {
  const sockets: FakeSocket[] = [];
  return {
    sockets,
    create: (url: string) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
  };
}

/** Timers that only run when the test says so, with the delays they were set for. */
export class ManualTimers implements Timers {
  private next = 1;
  private now = 0;
  readonly pending = new Map<number, { at: number; ms: number; fn: () => void; every?: number }>();
  /** Every setTimeout delay asked for, in order. */
  readonly timeoutDelays: number[] = [];

  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.next++;
    this.timeoutDelays.push(ms);
    this.pending.set(id, { at: this.now + ms, ms, fn });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  setInterval(fn: () => void, ms: number): unknown {
    const id = this.next++;
    this.pending.set(id, { at: this.now + ms, ms, fn, every: ms });
    return id;
  }
  clearInterval(handle: unknown): void {
    this.pending.delete(handle as number);
  }

  /** Moves the clock on, running what falls due in order. */
  advance(ms: number): void {
    const end = this.now + ms;
    for (;;) {
      let dueId: number | undefined;
      let dueAt = Infinity;
      for (const [id, t] of this.pending) {
        if (t.at <= end && t.at < dueAt) {
          dueAt = t.at;
          dueId = id;
        }
      }
      if (dueId === undefined) break;
      const t = this.pending.get(dueId)!;
      this.now = t.at;
      if (t.every) t.at += t.every;
      else this.pending.delete(dueId);
      t.fn();
    }
    this.now = end;
  }

  /** Pending one-shot timers. */
  get timeoutCount(): number {
    return [...this.pending.values()].filter((t) => !t.every).length;
  }
}
