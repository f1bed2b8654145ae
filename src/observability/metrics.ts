// Prometheus metrics of the running service (served at GET /asr/metrics). Each instance has its own
// registry so that several services in one process (tests) do not collide.
import client from 'prom-client';

export class Metrics {
  readonly registry = new client.Registry();
  readonly httpRequests: client.Counter<'method' | 'route' | 'status'>;
  readonly httpDuration: client.Histogram<'method' | 'route'>;
  /** Requests answered per route and status, kept for the statistics endpoints. */
  readonly routeCounts = new Map<string, number>();

  readonly audioSeconds: client.Counter<'model'>;
  readonly realTimeFactor: client.Histogram<'model'>;
  readonly jobsFinished: client.Counter<'status'>;

  constructor() {
    client.collectDefaultMetrics({ register: this.registry, prefix: 'scrubline_' });
    this.httpRequests = new client.Counter({
      name: 'scrubline_http_requests_total',
      help: 'HTTP requests answered, by method, route and status',
      labelNames: ['method', 'route', 'status'],
      registers: [this.registry],
    });
    this.httpDuration = new client.Histogram({
      name: 'scrubline_http_request_duration_seconds',
      help: 'HTTP request duration by method and route',
      labelNames: ['method', 'route'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
    this.audioSeconds = new client.Counter({
      name: 'scrubline_audio_seconds_total',
      help: 'Seconds of audio transcribed, by model',
      labelNames: ['model'],
      registers: [this.registry],
    });
    this.realTimeFactor = new client.Histogram({
      name: 'scrubline_job_real_time_factor',
      help: 'Processing time over audio duration per completed job',
      labelNames: ['model'],
      buckets: [0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2, 4],
      registers: [this.registry],
    });
    this.jobsFinished = new client.Counter({
      name: 'scrubline_jobs_finished_total',
      help: 'Jobs that reached a terminal state, by state',
      labelNames: ['status'],
      registers: [this.registry],
    });
  }

  /** Gauges read when scraped: jobs per state (the queue depth is `queued`) and decoder use. */
  watchJobs(countByStatus: () => Promise<Record<string, number>>, decoders: () => { size: number; busy: number; queued: number }): void {
    new client.Gauge({
      name: 'scrubline_jobs',
      help: 'Jobs by state (queued is the queue depth)',
      labelNames: ['state'],
      registers: [this.registry],
      async collect() {
        const counts = await countByStatus();
        for (const state of ['queued', 'processing', 'completed', 'failed', 'cancelled']) this.set({ state }, counts[state] ?? 0);
      },
    });
    new client.Gauge({
      name: 'scrubline_decoders',
      help: 'Speech decoders: pool size, busy, and channel tasks waiting',
      labelNames: ['kind'],
      registers: [this.registry],
      collect() {
        const stats = decoders();
        this.set({ kind: 'size' }, stats.size);
        this.set({ kind: 'busy' }, stats.busy);
        this.set({ kind: 'waiting' }, stats.queued);
      },
    });
  }

  /** A job reached a terminal state. */
  jobFinished(status: string, model: string | null, audioSeconds: number | null, processingSeconds: number | null): void {
    this.jobsFinished.inc({ status });
    if (status !== 'completed' || !model || !audioSeconds) return;
    this.audioSeconds.inc({ model }, audioSeconds);
    if (processingSeconds !== null) this.realTimeFactor.observe({ model }, processingSeconds / audioSeconds);
  }

  observe(method: string, route: string, status: number, seconds: number): void {
    this.httpRequests.inc({ method, route, status: String(status) });
    this.httpDuration.observe({ method, route }, seconds);
    const key = `${method} ${route} ${status}`;
    this.routeCounts.set(key, (this.routeCounts.get(key) ?? 0) + 1);
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
