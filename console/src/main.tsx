// The console's shell: who is signed in (or that the service is open on this machine), the navigation, and
// the view the address names (#/jobs, #/jobs/<id>, #/records, #/records/<eventId>, #/streams?callSid=,
// #/streams/<id>, #/dashboard, #/projects, #/operations, #/keys for admin keys).
import { render } from 'preact';
import { lazy, Suspense } from 'preact/compat';
import { useEffect, useState } from 'preact/hooks';
import { ApiError, can, forgetKey, rememberKey, type Session, session, storedKey } from './api';
import { JobsView } from './views/Jobs';
import { SignIn } from './views/SignIn';
import './style.css';

// The jobs view (where an agent desktop lands) loads first; the waveform and chart libraries load with the views
// that draw them.
const CallView = lazy(() => import('./views/Call').then((m) => m.CallView));
const ProjectsView = lazy(() => import('./views/Projects').then((m) => m.ProjectsView));
const OperationsView = lazy(() => import('./views/Operations').then((m) => m.OperationsView));
const KeysView = lazy(() => import('./views/Keys').then((m) => m.KeysView));
const RecordsView = lazy(() => import('./views/Records').then((m) => m.RecordsView));
const DashboardView = lazy(() => import('./views/Dashboard').then((m) => m.DashboardView));
const StreamsView = lazy(() => import('./views/Streams').then((m) => m.StreamsView));

function useRoute(): string {
  const [hash, setHash] = useState(location.hash || '#/jobs');
  useEffect(() => {
    const onChange = () => setHash(location.hash || '#/jobs');
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return hash;
}

function App() {
  const [who, setWho] = useState<Session | null | undefined>(undefined);
  const [error, setError] = useState<string>();
  const route = useRoute();

  const check = async () => {
    const hadKey = storedKey() !== null;
    try {
      setWho(await session());
      setError(undefined);
    } catch (e) {
      if (e instanceof ApiError && (e.status === 401 || e.status === 403)) {
        forgetKey();
        setWho(null);
        // Without a key the 401 only says that signing in is needed; with one it says why the key was refused.
        setError(hadKey ? e.message : undefined);
      } else setError((e as Error).message);
    }
  };
  useEffect(() => void check(), []);

  if (who === undefined) return <main id="main"><p role="status">Loading…</p>{error && <p class="error" role="alert">{error}</p>}</main>;
  if (who === null) {
    return (
      <SignIn
        error={error}
        onKey={async (key) => {
          rememberKey(key);
          await check();
        }}
      />
    );
  }

  const signOut = () => {
    forgetKey();
    setWho(null);
  };
  // The open console's first key closes it: the tab goes on signed in with that key.
  const signInWith = (key: string) => {
    rememberKey(key);
    void check();
  };
  const [, view, id] = route.split('?')[0].split('/');
  const params = new URLSearchParams(route.split('?')[1] ?? '');
  let body;
  if (view === 'jobs' && id) body = <CallView jobId={decodeURIComponent(id)} session={who} />;
  else if (view === 'dashboard') body = <DashboardView />;
  else if (view === 'records') body = <RecordsView eventId={id ? decodeURIComponent(id) : undefined} />;
  else if (view === 'streams') body = <StreamsView streamId={id ? decodeURIComponent(id) : undefined} callSid={params.get('callSid') ?? undefined} />;
  else if (view === 'projects') body = <ProjectsView session={who} />;
  else if (view === 'operations') body = <OperationsView />;
  else if (view === 'keys') body = <KeysView session={who} onSignIn={signInWith} onSignedOut={signOut} />;
  else body = <JobsView session={who} />;

  const link = (href: string, label: string, active: boolean) => (
    <a href={href} aria-current={active ? 'page' : undefined}>
      {label}
    </a>
  );
  return (
    <>
      <header class="top">
        <span class="brand">Scrubline</span>
        <nav aria-label="Views">
          {link('#/jobs', 'Jobs', view === 'jobs' || !view)}
          {link('#/dashboard', 'Dashboard', view === 'dashboard')}
          {link('#/records', 'Records', view === 'records')}
          {link('#/streams', 'Streams', view === 'streams')}
          {link('#/projects', 'Projects', view === 'projects')}
          {link('#/operations', 'Operations', view === 'operations')}
          {can(who.scope, 'admin') && link('#/keys', 'Keys', view === 'keys')}
        </nav>
        <span class="who" data-scope={who.scope}>
          {who.open ? 'Open on this machine (no API key exists)' : `${who.name ?? 'key'} · ${who.scope}`}
          {!who.open && (
            <button type="button" class="link" onClick={signOut}>
              Sign out
            </button>
          )}
        </span>
      </header>
      <main id="main">
        <Suspense fallback={<p role="status">Loading…</p>}>{body}</Suspense>
      </main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
