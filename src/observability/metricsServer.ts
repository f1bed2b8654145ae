// A bare metrics endpoint for processes without the HTTP API (`scrubline worker --metrics-port`): GET /metrics
// answers the process's Prometheus text, anything else 404. Metrics hold no secrets; it listens on loopback
// unless told otherwise (SCRUBLINE_METRICS_HOST), like the API before its first key.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Metrics } from './metrics.js';

export interface MetricsServer {
  /** Where it listens, e.g. http://127.0.0.1:9464. */
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startMetricsServer(metrics: Metrics, options: { port: number; host: string }): Promise<MetricsServer> {
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found: the metrics are at GET /metrics\n');
      return;
    }
    metrics.text().then(
      (text) => response.writeHead(200, { 'content-type': metrics.contentType }).end(request.method === 'HEAD' ? undefined : text),
      (error: unknown) => response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(`metrics failed: ${(error as Error).message}\n`),
    );
  });
  // Scrapers keep connections open; they must not hold a stopping worker.
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
