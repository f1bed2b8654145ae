// The live streams of this process: admission against the cluster's capacity (store/liveStreams.ts), their rows
// kept fresh, idle streams ended after `idletimeout`, all of them ended when the service stops.
import type { Logger } from 'pino';
import { ServiceError } from '../errors.js';
import type { Metrics } from '../observability/metrics.js';
import type { Store } from '../store/index.js';
import type { StreamSession } from './session.js';

/** How often this process refreshes its streams' rows and looks for idle ones (ms). */
export const STREAM_BEAT_MS = 2000;
/** A row older than this (s) is a stream of a process gone. */
export const STREAM_STALE_SECONDS = 15;

export interface StreamEntry {
  session?: StreamSession;
  protocol: string;
  /** Seconds without audio before the stream is closed. */
  idleSeconds: number;
  /** Ends the stream with a reason (the route closes its socket). */
  close(reason: string): void;
}

export class StreamRegistry {
  private readonly entries = new Map<string, StreamEntry>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: { store: Store; processId: string; maxStreams: number; totalStreams?: number; logger: Logger; metrics?: Metrics },
  ) {
    options.metrics?.watchStreams(() => this.openByProtocol());
  }

  /** Streams open in this process, by protocol. */
  openByProtocol(): Record<string, number> {
    const open: Record<string, number> = {};
    for (const entry of this.entries.values()) open[entry.protocol] = (open[entry.protocol] ?? 0) + 1;
    return open;
  }

  get open(): number {
    return this.entries.size;
  }

  get capacity(): number {
    return this.options.maxStreams;
  }

  /** Admit a stream or refuse it (503 with the figures and the reason). */
  async acquire(id: string, entry: StreamEntry): Promise<void> {
    let admission;
    try {
      admission = await this.options.store.streams.admit(
        { id, process_id: this.options.processId, process_capacity: this.options.maxStreams, protocol: entry.protocol },
        STREAM_STALE_SECONDS,
        this.options.totalStreams,
      );
    } catch (error) {
      this.options.metrics?.streamsRefused.inc({ reason: 'database' });
      throw new ServiceError('unavailable', `Streams are counted in the database, which does not answer: ${(error as Error).message}`);
    }
    if (!admission.admitted) {
      this.options.metrics?.streamsRefused.inc({ reason: 'at_capacity' });
      const full = admission.processStreams >= this.options.maxStreams;
      const reason = full
        ? `this server is at its capacity of ${this.options.maxStreams} concurrent streams (SCRUBLINE_MAX_STREAMS)`
        : `the cluster is at its capacity of ${admission.capacity} concurrent streams (${admission.streams} open)`;
      throw new ServiceError('unavailable', `Stream refused: ${reason}. See /asr/maxstreamscheck.`, [], {
        reason: 'at_capacity',
        streams: admission.streams,
        capacity: admission.capacity,
        retryAfter: 5,
      });
    }
    this.entries.set(id, entry);
    this.start();
  }

  async release(id: string): Promise<void> {
    const entry = this.entries.get(id);
    if (!entry || !this.entries.delete(id)) return;
    if (entry.session) this.options.metrics?.streamAudioSeconds.inc({ protocol: entry.protocol }, entry.session.audioSeconds);
    await this.options.store.streams.release(id).catch((error: unknown) => {
      this.options.logger.warn({ err: (error as Error).message }, 'removing a live stream row failed');
    });
    if (this.entries.size === 0) this.stopTimer();
  }

  private start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.beat(), STREAM_BEAT_MS);
    this.timer.unref();
  }

  private stopTimer(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Rows refreshed; streams silent longer than their idletimeout closed with the reason. */
  async beat(): Promise<void> {
    const now = Date.now();
    for (const entry of this.entries.values()) {
      const last = entry.session?.lastAudioAt;
      if (last !== undefined && now - last >= entry.idleSeconds * 1000 && !entry.session?.ended) {
        entry.close(`idle: no audio for ${entry.idleSeconds} s (idletimeout)`);
      } else if (!entry.session?.ended) {
        // A stream may stay silent for up to a day (idletimeout): its recording must outlive the upload sweep.
        entry.session?.keepFresh();
      }
    }
    try {
      await this.options.store.streams.refresh(this.options.processId);
      await this.options.store.streams.forgetOlderThan(STREAM_STALE_SECONDS * 100);
    } catch (error) {
      this.options.logger.warn({ err: (error as Error).message }, 'refreshing live stream rows failed');
    }
  }

  /** The service stops: every stream ends (its job made) before the store closes. */
  async closeAll(reason: string): Promise<void> {
    this.stopTimer();
    const sessions = [...this.entries.values()];
    for (const entry of sessions) entry.close(reason);
    // One session that fails to end must not keep the others (or the store's close after this) from happening.
    await Promise.allSettled(sessions.map(async (e) => e.session?.end(reason)));
  }
}
