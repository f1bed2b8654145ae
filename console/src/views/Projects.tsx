// Projects: each project's published versions, its rules, the diff between two versions, and for admin keys a
// form to edit the redaction and insight rules, preview them on a sample sentence (the server validates the draft
// as a publish would, redacts with the one redaction core and runs the insight rules over the redacted sample)
// and publish them as a new version.
import { useEffect, useState } from 'preact/hooks';
import { can, getJson, postJson, type Session } from '../api';
import { diffLines } from '../diff';
import { when } from '../format';
import { type DraftInsight, type InsightFinding, InsightFindings, InsightRules } from './InsightRules';

interface Rule {
  name: string;
  active?: boolean;
  mask_type?: string;
  setting?: string;
  real_time?: boolean;
}
interface Config {
  sid: string;
  name?: string;
  scrubtext?: boolean;
  scrubaudio?: boolean;
  rules?: Rule[];
  insights?: DraftInsight[];
  [key: string]: unknown;
}
interface Version {
  sid: string;
  version: number;
  publishedAt: string;
  config: Config;
}
interface Listing {
  total: number;
  projects: { sid: string; version: number; publishedAt: string }[];
  kinds: string[];
  maskTypes: string[];
}

export function ProjectsView({ session }: { session: Session }) {
  const [listing, setListing] = useState<Listing>();
  const [sid, setSid] = useState<string>();
  const [versions, setVersions] = useState<Version[]>([]);
  const [error, setError] = useState<string>();
  const [reload, setReload] = useState(0);

  useEffect(() => {
    getJson<Listing>('/system/projects').then(
      (l) => {
        setListing(l);
        if (!sid && l.projects[0]) setSid(l.projects[0].sid);
      },
      (e: Error) => setError(e.message),
    );
  }, [reload]);
  useEffect(() => {
    if (!sid) return setVersions([]);
    getJson<{ versions: Version[] }>(`/system/projects/${encodeURIComponent(sid)}/versions`).then(
      (v) => setVersions(v.versions),
      () => setVersions([]),
    );
  }, [sid, reload]);

  const admin = can(session.scope, 'admin');
  return (
    <section aria-labelledby="projects-title">
      <h1 id="projects-title">Projects</h1>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <div class="columns">
        <nav aria-label="Projects" class="project-list">
          <ul>
            {listing?.projects.map((p) => (
              <li>
                <button type="button" class="link" aria-pressed={p.sid === sid} onClick={() => setSid(p.sid)}>
                  {p.sid} <small>v{p.version}</small>
                </button>
              </li>
            ))}
          </ul>
          {listing && listing.projects.length === 0 && <p>No project has been published yet.</p>}
          {admin && (
            <form
              onSubmit={(e) => {
                e.preventDefault();
                const input = (e.currentTarget as HTMLFormElement).elements.namedItem('new-sid') as HTMLInputElement;
                if (input.value.trim()) setSid(input.value.trim());
              }}
            >
              <label for="new-sid">New project id</label>
              <input id="new-sid" name="new-sid" size={12} />
              <button type="submit">Start</button>
            </form>
          )}
        </nav>
        <div class="project">
          {sid && (
            <>
              <h2>{sid}</h2>
              <Versions versions={versions} />
              {versions.length > 1 && <Diff versions={versions} />}
              {admin && listing && (
                <EditForm
                  key={`${sid}:${versions[0]?.version ?? 0}`}
                  base={versions[0]?.config ?? { sid, scrubtext: true, rules: [] }}
                  kinds={listing.kinds}
                  maskTypes={listing.maskTypes}
                  onPublished={() => setReload((r) => r + 1)}
                />
              )}
              {!admin && <p class="hint">Publishing needs an admin key; this key can read the versions.</p>}
            </>
          )}
        </div>
      </div>
    </section>
  );
}

function Versions({ versions }: { versions: Version[] }) {
  if (versions.length === 0) return <p>Not published yet.</p>;
  return (
    <table class="versions">
      <caption>Published versions (the newest is in force)</caption>
      <thead>
        <tr>
          <th scope="col">Version</th>
          <th scope="col">Published</th>
          <th scope="col">Rules</th>
          <th scope="col">Insight rules</th>
        </tr>
      </thead>
      <tbody>
        {versions.map((v) => (
          <tr data-version={v.version}>
            <td>{v.version}</td>
            <td>{when(v.publishedAt)}</td>
            <td>{(v.config.rules ?? []).map((r) => `${r.name}${r.active === false ? ' (off)' : ''}: ${r.mask_type ?? 'Placeholder'}${r.setting ? ` ${r.setting}` : ''}`).join('; ') || 'none (every kind when scrubbing)'}</td>
            <td>{(v.config.insights ?? []).map((i) => `${i.name ?? i.id}${i.complianceViolation ? ' (must be said)' : ''}`).join('; ') || 'none'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Diff({ versions }: { versions: Version[] }) {
  const [from, setFrom] = useState(versions[1].version);
  const [to, setTo] = useState(versions[0].version);
  const text = (n: number) => JSON.stringify(versions.find((v) => v.version === n)?.config ?? {}, null, 2).split('\n');
  const lines = diffLines(text(from), text(to));
  return (
    <section aria-labelledby="diff-title" class="diff">
      <h3 id="diff-title">Changes between versions</h3>
      <label for="diff-from">From</label>
      <select id="diff-from" value={from} onChange={(e) => setFrom(Number(e.currentTarget.value))}>
        {versions.map((v) => (
          <option value={v.version}>{v.version}</option>
        ))}
      </select>
      <label for="diff-to">to</label>
      <select id="diff-to" value={to} onChange={(e) => setTo(Number(e.currentTarget.value))}>
        {versions.map((v) => (
          <option value={v.version}>{v.version}</option>
        ))}
      </select>
      <pre>
        {lines.map((l) => (
          <div class={`d d${l.op === '+' ? 'add' : l.op === '-' ? 'del' : 'same'}`}>
            {l.op} {l.text}
          </div>
        ))}
      </pre>
    </section>
  );
}

function EditForm({ base, kinds, maskTypes, onPublished }: { base: Config; kinds: string[]; maskTypes: string[]; onPublished: () => void }) {
  const [config, setConfig] = useState<Config>(base);
  const [sample, setSample] = useState('Agent: thank you for calling, this is a recorded line\nCaller: My name is John Smith and my card number is 4532 0151 1283 0366.');
  const [preview, setPreview] = useState<{ text: string; spans: { kind: string; offset: number; length: number }[]; insights?: InsightFinding[] }>();
  const [message, setMessage] = useState<{ ok: boolean; text: string }>();
  const rules = config.rules ?? [];
  const setRule = (i: number, patch: Partial<Rule>) => setConfig({ ...config, rules: rules.map((r, j) => (j === i ? { ...r, ...patch } : r)) });
  const data = () => JSON.stringify(config);

  const runPreview = async () => {
    try {
      setPreview(await postJson('/system/projects/preview', { data: data(), text: sample }));
      setMessage(undefined);
    } catch (e) {
      setPreview(undefined);
      setMessage({ ok: false, text: (e as Error).message });
    }
  };
  const publish = async () => {
    try {
      const r = await postJson<{ version: number }>('/system/cache/v2/publish', { data: data() });
      setMessage({ ok: true, text: `Published version ${r.version}.` });
      onPublished();
    } catch (e) {
      setMessage({ ok: false, text: (e as Error).message });
    }
  };

  return (
    <form
      id="publish-form"
      class="edit"
      aria-labelledby="edit-title"
      onSubmit={(e) => {
        e.preventDefault();
        void publish();
      }}
    >
      <h3 id="edit-title">Edit rules</h3>
      <label class="check">
        <input type="checkbox" checked={config.scrubtext === true} onChange={(e) => setConfig({ ...config, scrubtext: e.currentTarget.checked })} /> Redact text of every job
      </label>
      <label class="check">
        <input type="checkbox" checked={config.scrubaudio === true} onChange={(e) => setConfig({ ...config, scrubaudio: e.currentTarget.checked })} /> Redact audio of every job
      </label>
      <table class="rules">
        <thead>
          <tr>
            <th scope="col">Kind</th>
            <th scope="col">Mask type</th>
            <th scope="col">Setting</th>
            <th scope="col">Real time</th>
            <th scope="col">Active</th>
            <th scope="col">
              <span class="sr-only">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rules.map((r, i) => (
            <tr data-rule={i}>
              <td>
                <select aria-label={`Kind of rule ${i + 1}`} name={`rule-${i}-kind`} value={r.name} onChange={(e) => setRule(i, { name: e.currentTarget.value })}>
                  {!kinds.includes(r.name) && <option value={r.name}>{r.name}</option>}
                  {kinds.map((k) => (
                    <option value={k}>{k}</option>
                  ))}
                </select>
              </td>
              <td>
                <select aria-label={`Mask type of rule ${i + 1}`} name={`rule-${i}-mask`} value={r.mask_type ?? 'Placeholder'} onChange={(e) => setRule(i, { mask_type: e.currentTarget.value })}>
                  {maskTypes.map((m) => (
                    <option value={m}>{m}</option>
                  ))}
                </select>
              </td>
              <td>
                <input aria-label={`Setting of rule ${i + 1}`} name={`rule-${i}-setting`} value={r.setting ?? ''} size={14} onInput={(e) => setRule(i, { setting: e.currentTarget.value || undefined })} />
              </td>
              <td>
                <input type="checkbox" aria-label={`Rule ${i + 1} in real time`} checked={r.real_time === true} onChange={(e) => setRule(i, { real_time: e.currentTarget.checked })} />
              </td>
              <td>
                <input type="checkbox" aria-label={`Rule ${i + 1} active`} checked={r.active !== false} onChange={(e) => setRule(i, { active: e.currentTarget.checked })} />
              </td>
              <td>
                <button type="button" onClick={() => setConfig({ ...config, rules: rules.filter((_, j) => j !== i) })}>
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <button type="button" id="add-rule" onClick={() => setConfig({ ...config, rules: [...rules, { name: kinds[0] ?? 'Person', mask_type: 'Placeholder' }] })}>
        Add rule
      </button>
      <InsightRules insights={config.insights ?? []} onChange={(insights) => setConfig({ ...config, insights: insights.length > 0 ? insights : undefined })} />
      <label for="preview-text">Sample sentence (a line per turn; "Agent:" and "Caller:" name the side)</label>
      <textarea id="preview-text" rows={3} value={sample} onInput={(e) => setSample(e.currentTarget.value)} />
      <button type="button" id="preview" onClick={runPreview}>
        Preview
      </button>
      {preview && (
        <p class="preview" aria-live="polite" data-spans={preview.spans.length}>
          {highlight(preview.text, preview.spans)}
        </p>
      )}
      {preview?.insights && <InsightFindings findings={preview.insights} />}
      <button type="submit" id="publish">
        Publish a new version
      </button>
      {message && (
        <p class={message.ok ? 'ok' : 'error'} role={message.ok ? 'status' : 'alert'}>
          {message.text}
        </p>
      )}
    </form>
  );
}

function highlight(text: string, spans: { kind: string; offset: number; length: number }[]) {
  const out = [];
  let at = 0;
  for (const s of [...spans].sort((a, b) => a.offset - b.offset)) {
    out.push(text.slice(at, s.offset));
    out.push(
      <mark class={`redacted kind-${s.kind}`} title={s.kind}>
        {text.slice(s.offset, s.offset + s.length) || '∅'}
      </mark>,
    );
    at = s.offset + s.length;
  }
  out.push(text.slice(at));
  return out;
}
