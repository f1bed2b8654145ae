// API keys, for admin keys (and the open console on this machine): the keys with their scope, prefix and times; a
// form that makes a key and shows it this once (the service keeps only its hash), with a copy button; and revoke,
// confirmed in the row first. The service refuses what would lock admins out (a first key that is not admin, the
// last admin key revoked) and the view shows its reason.
import { useEffect, useState } from 'preact/hooks';
import { can, deleteJson, getJson, postJson, type Scope, type Session, storedKey } from '../api';
import { when } from '../format';

interface ApiKey {
  id: string;
  name: string;
  scope: Scope;
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
}
type CreatedKey = ApiKey & { key: string };

const SCOPES: { value: Scope; label: string }[] = [
  { value: 'read', label: 'read: sees jobs, calls, projects, operations' },
  { value: 'submit', label: 'submit: also uploads and posts records' },
  { value: 'admin', label: 'admin: also publishes and manages keys' },
];

/** Whether a listed key is the one this tab signed in with (its visible prefix is where the key begins). */
const isOwn = (key: ApiKey): boolean => storedKey()?.startsWith(key.prefix) === true;

export function KeysView({ session, onSignIn, onSignedOut }: { session: Session; onSignIn: (key: string) => void; onSignedOut: () => void }) {
  const [keys, setKeys] = useState<ApiKey[]>();
  const [error, setError] = useState<string>();
  const [created, setCreated] = useState<CreatedKey>();
  const [reload, setReload] = useState(0);
  const admin = can(session.scope, 'admin');

  useEffect(() => {
    if (!admin) return;
    getJson<{ keys: ApiKey[] }>('/system/keys').then(
      (l) => {
        setKeys(l.keys);
        setError(undefined);
      },
      (e: Error) => setError(e.message),
    );
    // Read again when the open console's first key signs the tab in.
  }, [reload, session.open]);

  if (!admin) {
    return (
      <section aria-labelledby="keys-title">
        <h1 id="keys-title">API keys</h1>
        <p class="hint">Managing keys needs an admin key.</p>
      </section>
    );
  }

  const active = (keys ?? []).filter((k) => k.revokedAt === null);
  // The open console (no key exists): the first key ends it, and must be admin.
  const first = session.open && keys !== undefined && active.length === 0;
  return (
    <section aria-labelledby="keys-title">
      <h1 id="keys-title">API keys</h1>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {keys === undefined && !error ? (
        // The form waits for the list: whether this is the first key (which must be admin) depends on it.
        <p class="hint">Reading the keys…</p>
      ) : created ? (
        // On the open console the first key has closed it: done, the tab signs in (with this key or another).
        <NewKey created={created} open={session.open} onSignIn={onSignIn} onDone={() => (session.open ? onSignedOut() : setCreated(undefined))} />
      ) : (
        <CreateForm
          first={first}
          onCreated={(key) => {
            setCreated(key);
            // Once the first key exists the open console is closed: the list is read again after signing in.
            if (!session.open) setReload((r) => r + 1);
          }}
        />
      )}
      {keys && (
        <table class="keys">
          <caption>Keys (a key itself is shown only when it is made)</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Scope</th>
              <th scope="col">Starts with</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">State</th>
              <th scope="col">
                <span class="sr-only">Revoke</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.map((k) => (
              <KeyRow
                key={k.id}
                apiKey={k}
                onRevoked={(own) => {
                  if (own) onSignedOut();
                  else setReload((r) => r + 1);
                }}
              />
            ))}
          </tbody>
        </table>
      )}
      {keys && keys.length === 0 && <p>No key exists yet: the service serves this machine only, without a key.</p>}
    </section>
  );
}

function CreateForm({ first, onCreated }: { first: boolean; onCreated: (key: CreatedKey) => void }) {
  const [name, setName] = useState('');
  const [scope, setScope] = useState<Scope>('read');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const chosen = first ? 'admin' : scope;
  return (
    <form
      id="key-form"
      class="edit"
      aria-labelledby="key-form-title"
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        try {
          onCreated(await postJson<CreatedKey>('/system/keys', { name: name.trim(), scope: chosen }));
          setName('');
          setError(undefined);
        } catch (err) {
          setError((err as Error).message);
        } finally {
          setBusy(false);
        }
      }}
    >
      <h2 id="key-form-title">New key</h2>
      <div class="options">
        <label for="key-name">Name</label>
        <input id="key-name" name="key-name" required maxLength={100} size={24} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <label for="key-scope">Scope</label>
        <select id="key-scope" name="key-scope" value={chosen} disabled={first} onChange={(e) => setScope(e.currentTarget.value as Scope)}>
          {SCOPES.map((s) => (
            <option value={s.value}>{s.label}</option>
          ))}
        </select>
        <button type="submit" id="key-create" disabled={busy || name.trim() === ''}>
          Create key
        </button>
      </div>
      {first && <p class="hint">The first key must be an admin key: once it exists, every call needs a key, this machine's too.</p>}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

function NewKey({ created, open, onSignIn, onDone }: { created: CreatedKey; open: boolean; onSignIn: (key: string) => void; onDone: () => void }) {
  const [copied, setCopied] = useState<string>();
  const copy = async () => {
    (document.getElementById('new-key') as HTMLInputElement | null)?.select();
    try {
      await navigator.clipboard.writeText(created.key);
      setCopied('Copied to the clipboard.');
    } catch {
      // No clipboard outside a secure context (plain http to another machine): the key is selected instead.
      setCopied('The browser does not allow copying here: the key is selected, copy it with Ctrl+C (⌘C).');
    }
  };
  return (
    <section class="edit newkey" aria-labelledby="new-key-title" data-key={created.id}>
      <h2 id="new-key-title">
        Key “{created.name}” made ({created.scope})
      </h2>
      <p class="once">
        <strong>Shown once.</strong> Copy the key now and keep it somewhere safe: the service stores only its hash and cannot show it
        again. A lost key is revoked and replaced.
      </p>
      <div class="options">
        <label for="new-key">Key</label>
        <input id="new-key" class="secret" readOnly size={56} value={created.key} autocomplete="off" spellcheck={false} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" id="copy-key" onClick={copy}>
          Copy
        </button>
        <button type="button" id="key-done" onClick={onDone}>
          Done
        </button>
      </div>
      {copied && (
        <p class="hint" role="status">
          {copied}
        </p>
      )}
      {open && created.scope === 'admin' && (
        <p>
          Keys are now required, on this machine too.{' '}
          <button type="button" id="sign-in-new" onClick={() => onSignIn(created.key)}>
            Sign in with this key
          </button>
        </p>
      )}
    </section>
  );
}

function KeyRow({ apiKey: k, onRevoked }: { apiKey: ApiKey; onRevoked: (own: boolean) => void }) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string>();
  const own = isOwn(k);
  const revoke = async () => {
    try {
      await deleteJson(`/system/keys/${encodeURIComponent(k.id)}`);
      setConfirming(false);
      onRevoked(own);
    } catch (e) {
      setError((e as Error).message);
      setConfirming(false);
    }
  };
  return (
    <tr data-key={k.id} data-state={k.revokedAt ? 'revoked' : 'active'}>
      <td>
        {k.name}
        {own && <small> (this key)</small>}
      </td>
      <td>{k.scope}</td>
      <td>
        <code>{k.prefix}…</code>
      </td>
      <td>{when(k.createdAt)}</td>
      <td>{when(k.lastUsedAt)}</td>
      <td>{k.revokedAt ? `revoked ${when(k.revokedAt)}` : 'active'}</td>
      <td>
        {!k.revokedAt && !confirming && (
          <button type="button" class="revoke" aria-label={`Revoke ${k.name}`} onClick={() => setConfirming(true)}>
            Revoke
          </button>
        )}
        {confirming && (
          <span class="confirm" role="group" aria-label={`Confirm revoking ${k.name}`}>
            Calls with this key are refused from now on{own ? ', this tab’s included' : ''}.{' '}
            <button type="button" class="danger" onClick={revoke}>
              Revoke key
            </button>{' '}
            <button type="button" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </span>
        )}
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
      </td>
    </tr>
  );
}
