// Calls to the service's API from the console: the signed-in key (kept in sessionStorage: this tab only, gone
// when it closes) goes with each as a bearer token; a problem+json answer becomes an ApiError with its detail.
const KEY = 'scrubline.apiKey';

export type Scope = 'read' | 'submit' | 'admin';
export interface Session {
  scope: Scope;
  name?: string;
  open: boolean;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly problem?: { detail?: string; errors?: { path?: string; message?: string }[] },
  ) {
    super(message);
  }
}

export const storedKey = (): string | null => sessionStorage.getItem(KEY);
export const rememberKey = (key: string): void => sessionStorage.setItem(KEY, key);
export const forgetKey = (): void => sessionStorage.removeItem(KEY);

export function authHeaders(): Record<string, string> {
  const key = storedKey();
  return key ? { authorization: `Bearer ${key}` } : {};
}

async function failure(response: Response): Promise<ApiError> {
  let problem: ApiError['problem'];
  try {
    problem = await response.json();
  } catch {
    problem = undefined;
  }
  const issues = (problem?.errors ?? []).map((e) => `${e.path ?? ''} ${e.message ?? ''}`.trim()).filter(Boolean);
  const detail = problem?.detail ?? response.statusText;
  return new ApiError(response.status, issues.length > 0 ? `${detail} (${issues.join('; ')})` : detail, problem);
}

export async function call(path: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(path, { ...init, headers: { ...authHeaders(), ...(init.headers as Record<string, string>) } });
  if (!response.ok) throw await failure(response);
  return response;
}

export async function getJson<T>(path: string): Promise<T> {
  return (await call(path)).json() as Promise<T>;
}

export async function postJson<T>(path: string, body: unknown): Promise<T> {
  return (await call(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json() as Promise<T>;
}

export async function deleteJson<T>(path: string): Promise<T> {
  return (await call(path, { method: 'DELETE' })).json() as Promise<T>;
}

/** Who the key is; 401 means signing in is needed. */
export const session = (): Promise<Session> => getJson<Session>('/console/session');

export const can = (scope: Scope | undefined, needed: Scope): boolean => {
  const order: Scope[] = ['read', 'submit', 'admin'];
  return scope !== undefined && order.indexOf(scope) >= order.indexOf(needed);
};

/** A file from the API saved through the browser (the key cannot ride on a plain link). */
export async function download(path: string, fallbackName: string): Promise<void> {
  const response = await call(path);
  const disposition = response.headers.get('content-disposition') ?? '';
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? fallbackName;
  const url = URL.createObjectURL(await response.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** One recording uploaded with its options, reporting progress (fetch cannot report upload progress). */
export function upload(file: File, fields: Record<string, string>, onProgress: (fraction: number) => void): Promise<{ jobId: string }> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    // A zip of recordings is unpacked by the service into a job per recording.
    if (/\.zip$/i.test(file.name)) form.append('isZip', 'true');
    form.append('audio', file, file.name);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/asr/transcribe');
    for (const [name, value] of Object.entries(authHeaders())) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () => {
      let body: any;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body);
      else reject(new ApiError(xhr.status, body?.detail ?? xhr.statusText, body));
    };
    xhr.onerror = () => reject(new ApiError(0, 'The upload failed: the service could not be reached.'));
    xhr.send(form);
  });
}
