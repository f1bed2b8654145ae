// Prometheus metrics of the running service (served at GET /asr/metrics, and by `scrubline worker
// --metrics-port`). Each instance has its own registry so that several services in one process (tests) do
// not collide.
//
// What each figure counts: counters and histograms are this process's (Prometheus tells processes apart by
// their `instance`; sum them for the cluster); gauges read from the database (scrubline_jobs,
// scrubline_webhook_backlog) are the whole cluster's, the same from every process (take max, not sum).
import client from 'prom-client';

/** Default process metrics that are gauges named like counters (`promtool check metrics` refuses them); the
 *  same figures remain by type in scrubline_nodejs_active_handles / _requests / _resources. */
const MISNAMED_DEFAULTS = ['scrubline_nodejs_active_handles_total', 'scrubline_nodejs_active_requests_total', 'scrubline_nodejs_active_resources_total'];

export const FINISHED_STATES = ['completed', 'failed', 'cancelled'] as const;
export const DELIVERY_OUTCOMES = ['delivered', 'failed'] as const;
export const STREAM_PROTOCOLS = ['scrubline', 'twilio'] as const;
export const STREAM_REFUSALS = ['at_capacity', 'database'] as const;

export interface MetricSources {
  /** Jobs per state in the database. */
  jobsByStatus: () => Promise<Record<string, number>>;
  /** Notification deliveries waiting to be sent, in the database. */
  webhookBacklog: () => Promise<number>;
  /** This process's decoder pool. */
  decoders: () => { size: number; busy: number; queued: number };
  /** This process's job worker: jobs running and slots (0 slots where no worker runs). */
  worker: () => { running: number; slots: number };
}

export class Metrics {
  readonly registry = new client.Registry();
  readonly httpRequests: client.Counter<'method' | 'route' | 'status'>;
  readonly httpDuration: client.Histogram<'method' | 'route'>;
  /** Requests answered per route and status, kept for the statistics endpoints. */
  readonly routeCounts = new Map<string, number>();

  readonly audioSeconds: client.Counter<'model'>;
  readonly realTimeFactor: client.Histogram<'model'>;
  readonly jobsFinished: client.Counter<'status'>;
  readonly queueWait: client.Histogram;
  readonly webhookDeliveries: client.Counter<'outcome'>;
  readonly streamsRefused: client.Counter<'reason'>;
  readonly streamAudioSeconds: client.Counter<'protocol'>;
  readonly streamPartialLag: client.Histogram;
  readonly streamFinalDelay: client.Histogram;

  constructor() {
    client.collectDefaultMetrics({ register: this.registry, prefix: 'scrubline_' });
    for (const name of MISNAMED_DEFAULTS) this.registry.removeSingleMetric(name);
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
      help: 'Jobs this process brought to a terminal state, by state (cancelled: by the process that cancelled)',
      labelNames: ['status'],
      registers: [this.registry],
    });
    for (const status of FINISHED_STATES) this.jobsFinished.inc({ status }, 0);
    this.queueWait = new client.Histogram({
      name: 'scrubline_job_queue_wait_seconds',
      help: 'Time from submission to the start of the attempt that finished the job, per job finished in this process',
      buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600],
      registers: [this.registry],
    });
    this.webhookDeliveries = new client.Counter({
      name: 'scrubline_webhook_deliveries_total',
      help: 'Notification deliveries this process settled, by outcome (failed: refused for good or retries spent)',
      labelNames: ['outcome'],
      registers: [this.registry],
    });
    for (const outcome of DELIVERY_OUTCOMES) this.webhookDeliveries.inc({ outcome }, 0);
    this.streamsRefused = new client.Counter({
      name: 'scrubline_streams_refused_total',
      help: 'Live streams this process refused at admission, by reason (at_capacity: this server or the cluster full; database: admission could not be counted)',
      labelNames: ['reason'],
      registers: [this.registry],
    });
    for (const reason of STREAM_REFUSALS) this.streamsRefused.inc({ reason }, 0);
    this.streamAudioSeconds = new client.Counter({
      name: 'scrubline_stream_audio_seconds_total',
      help: 'Seconds of audio received on live streams that ended in this process, by protocol',
      labelNames: ['protocol'],
      registers: [this.registry],
    });
    const lagBuckets = [0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4, 6, 10, 20];
    this.streamPartialLag = new client.Histogram({
      name: 'scrubline_stream_partial_lag_seconds',
      help: "Live partials: time from the arrival of the audio up to a partial's end to the partial being sent",
      buckets: lagBuckets,
      registers: [this.registry],
    });
    this.streamFinalDelay = new client.Histogram({
      name: 'scrubline_stream_final_delay_seconds',
      help: "Live finals: time from the arrival of a final's last word's audio to the final being sent (includes the pause that ends the phrase)",
      buckets: lagBuckets,
      registers: [this.registry],
    });
  }

  /** Live streams open in this process, by protocol (read when scraped). */
  watchStreams(openByProtocol: () => Record<string, number>): void {
    new client.Gauge({
      name: 'scrubline_streams_open',
      help: 'Live streams open in this process, by protocol',
      labelNames: ['protocol'],
      registers: [this.registry],
      collect() {
        const open = openByProtocol();
        for (const protocol of STREAM_PROTOCOLS) this.set({ protocol }, open[protocol] ?? 0);
      },
    });
  }

  /** What a live stream reports to the metrics while it runs. */
  streamTiming(): { partial(lagSeconds: number): void; final(delaySeconds: number): void } {
    return { partial: (s) => this.streamPartialLag.observe(s), final: (s) => this.streamFinalDelay.observe(s) };
  }

  /** Gauges read when scraped. A figure the database cannot give now is left out, not reported as 0. */
  watch(sources: MetricSources): void {
    new client.Gauge({
      name: 'scrubline_jobs',
      help: 'Jobs by state in the database, cluster-wide (queued is the queue depth)',
      labelNames: ['state'],
      registers: [this.registry],
      async collect() {
        try {
          const counts = await sources.jobsByStatus();
          for (const state of ['queued', 'processing', ...FINISHED_STATES]) this.set({ state }, counts[state] ?? 0);
        } catch {
          this.reset();
        }
      },
    });
    new client.Gauge({
      name: 'scrubline_webhook_backlog',
      help: 'Notification deliveries waiting to be sent (pending), in the database, cluster-wide',
      registers: [this.registry],
      async collect() {
        try {
          this.set(await sources.webhookBacklog());
        } catch {
          this.reset();
        }
      },
    });
    new client.Gauge({
      name: 'scrubline_decoders',
      help: 'Speech decoders of this process: pool size, busy, and channel tasks waiting',
      labelNames: ['kind'],
      registers: [this.registry],
      collect() {
        const stats = sources.decoders();
        this.set({ kind: 'size' }, stats.size);
        this.set({ kind: 'busy' }, stats.busy);
        this.set({ kind: 'waiting' }, stats.queued);
      },
    });
    new client.Gauge({
      name: 'scrubline_worker_jobs',
      help: 'Job worker of this process: jobs running, and slots (jobs it runs at once; 0 where no worker runs)',
      labelNames: ['kind'],
      registers: [this.registry],
      collect() {
        const worker = sources.worker();
        this.set({ kind: 'running' }, worker.running);
        this.set({ kind: 'slots' }, worker.slots);
      },
    });
  }

  /** A job reached a terminal state. */
  jobFinished(status: string, model: string | null, audioSeconds: number | null, processingSeconds: number | null, queueWaitSeconds?: number | null): void {
    this.jobsFinished.inc({ status });
    if (queueWaitSeconds != null && queueWaitSeconds >= 0) this.queueWait.observe(queueWaitSeconds);
    if (status !== 'completed' || !model || !audioSeconds) return;
    this.audioSeconds.inc({ model }, audioSeconds);
    if (processingSeconds !== null) this.realTimeFactor.observe({ model }, processingSeconds / audioSeconds);
  }

  /** A notification delivery was settled. */
  webhookSettled(outcome: (typeof DELIVERY_OUTCOMES)[number]): void {
    this.webhookDeliveries.inc({ outcome });
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
