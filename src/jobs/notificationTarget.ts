// Where a job's terminal event goes: `notification` {url, method, auth_headers} of the request, or its
// `webhook` URL. Checked when the job is submitted, so a bad target is a 400 rather than a silent loss.
import { invalid } from '../errors.js';
import { NotificationTargetError, PUBLIC_ONLY, type TargetPolicy, validateNotificationTarget } from './notifications/index.js';
import type { TranscribeParams } from './request.js';

export interface JobNotificationTarget {
  url: string;
  method: 'POST' | 'PUT';
  authHeaders: string[];
}

export function notificationTarget(params: TranscribeParams): JobNotificationTarget | undefined {
  const url = params.notification?.url ?? params.webhook;
  if (!url) return undefined;
  return {
    url,
    method: (params.notification?.method ?? 'POST').toUpperCase() as 'POST' | 'PUT',
    authHeaders: params.notification?.auth_headers ?? [],
  };
}

/** Refuse a bad target (its form, or a host outside `policy`) with the path of the field at fault. */
export function checkNotificationTarget(params: TranscribeParams, policy: TargetPolicy = PUBLIC_ONLY): void {
  const target = notificationTarget(params);
  if (!target) return;
  try {
    validateNotificationTarget(target, policy);
  } catch (error) {
    if (!(error instanceof NotificationTargetError)) throw error;
    const inNotification = params.notification?.url !== undefined;
    const field = error.field === 'url' && !inNotification ? 'webhook' : `notification/${error.field}`;
    throw invalid(error.message, [{ pointer: `/${field}`, path: field.replace(/\/(\d+)/g, '[$1]').replace(/\//g, '.'), message: error.message }]);
  }
}
