// Notifications: the outbox, its signing, retry schedule and target checks.
export * from './backoff.js';
export { type DeliveryView, type EnqueueNotification, newDeliveryId, NotificationOutbox, type NotificationOutboxOptions } from './outbox.js';
export { loadWebhookSecret, WEBHOOK_SECRET_FILE } from './secret.js';
export * from './signing.js';
export * from './target.js';
