/**
 * A post-call record's states: `received` (validated and redacted; stored as such only by versions before processing
 * existed), then `processed` (enriched: analytics, insights, key phrases, entities) or `failed` (stored redacted,
 * not enriched; the `failed` event says why). Each step is an event of type `conversation`.
 */
export const RECEIVED = 'received';
export const PROCESSED = 'processed';
export const FAILED = 'failed';
