// Notifications: the outbox, its signing, retry schedule and target checks.
export * from './backoff.js';
export { DELIVERY_ERRORS, type DeliveryView, type EnqueueNotification, newDeliveryId, NotificationOutbox, type NotificationOutboxOptions, RedeliverError } from './outbox.js';
export { loadWebhookSecret, WEBHOOK_SECRET_FILE } from './secret.js';
export * from './signing.js';
export * from './target.js';
export * from './targetPolicy.js';
export { osResolve, type Resolve, type ResolvedAddress } from './transport.js';
