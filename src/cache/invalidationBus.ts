// Tells every process that a cached value changed. In-process by default; with REDIS_URL, over Redis
// pub/sub so that a configuration published on one machine is in force on all of them at once.
import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';

export interface InvalidationBus {
  readonly kind: 'local' | 'redis';
  publish(key: string): Promise<void>;
  subscribe(handler: (key: string) => void): void;
  close(): Promise<void>;
}

export function localBus(): InvalidationBus {
  const emitter = new EventEmitter();
  return {
    kind: 'local',
    async publish(key) {
      emitter.emit('key', key);
    },
    subscribe(handler) {
      emitter.on('key', handler);
    },
    async close() {
      emitter.removeAllListeners();
    },
  };
}

const CHANNEL = 'scrubline:invalidate';

export async function redisBus(url: string, onError: (error: Error) => void): Promise<InvalidationBus> {
  const options = { lazyConnect: true, maxRetriesPerRequest: 3 };
  const publisher = new Redis(url, options);
  const subscriber = new Redis(url, options);
  publisher.on('error', onError);
  subscriber.on('error', onError);
  await Promise.all([publisher.connect(), subscriber.connect()]);
  const handlers: ((key: string) => void)[] = [];
  await subscriber.subscribe(CHANNEL);
  subscriber.on('message', (_channel: string, key: string) => {
    for (const handler of handlers) handler(key);
  });
  return {
    kind: 'redis',
    async publish(key) {
      await publisher.publish(CHANNEL, key);
    },
    subscribe(handler) {
      handlers.push(handler);
    },
    async close() {
      subscriber.disconnect();
      publisher.disconnect();
    },
  };
}
