// Prometheus metrics of the running service (served at GET /asr/metrics). Each instance has its own
// registry so that several services in one process (tests) do not collide.
import client from 'prom-client';

export class Metrics {
  readonly registry = new client.Registry();
  readonly httpRequests: client.Counter<'method' | 'route' | 'status'>;
  readonly httpDuration: client.Histogram<'method' | 'route'>;
  /** Requests answered per route and status, kept for the statistics endpoints. */
  readonly routeCounts = new Map<string, number>();

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
