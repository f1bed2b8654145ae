// Sign-in with an API key: kept in this tab only (sessionStorage), sent as a bearer token.
import { useState } from 'preact/hooks';

export function SignIn({ onKey, error }: { onKey: (key: string) => Promise<void>; error?: string }) {
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState(false);
  return (
    <main id="main" class="signin">
      <h1>Scrubline console</h1>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          await onKey(key.trim());
          setBusy(false);
        }}
      >
        <label for="apikey">API key</label>
        <input id="apikey" name="apikey" type="password" autocomplete="off" required value={key} onInput={(e) => setKey(e.currentTarget.value)} />
        <p class="hint">The key is kept in this tab only and is forgotten when the tab closes. Its scope decides what you can do here.</p>
        <button type="submit" disabled={busy || key.trim() === ''}>
          Sign in
        </button>
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
      </form>
    </main>
  );
}
