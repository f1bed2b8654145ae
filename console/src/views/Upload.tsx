// Upload of one or many recordings (picked or dropped) with the options set most: project, kinds to redact,
// audio redaction, model and the agent's channel; one request per recording, each with its progress.
import { useEffect, useState } from 'preact/hooks';
import { getJson, upload } from '../api';

interface Item {
  name: string;
  progress: number;
  jobId?: string;
  error?: string;
}

export function Upload({ onSubmitted }: { onSubmitted: () => void }) {
  const [files, setFiles] = useState<File[]>([]);
  const [items, setItems] = useState<Item[]>([]);
  const [kinds, setKinds] = useState<string[]>([]);
  const [models, setModels] = useState<string[]>([]);
  const [chosenKinds, setChosenKinds] = useState<string[]>([]);
  const [sid, setSid] = useState('');
  const [scrubaudio, setScrubaudio] = useState(false);
  const [model, setModel] = useState('');
  const [agent, setAgent] = useState('');
  const [over, setOver] = useState(false);

  useEffect(() => {
    getJson<{ kinds: string[] }>('/system/projects?limit=1').then((r) => setKinds(r.kinds), () => setKinds([]));
    getJson<{ models: { name: string; installed?: boolean }[] }>('/asr/models').then(
      (r) => setModels(r.models.filter((m) => m.installed !== false).map((m) => m.name)),
      () => setModels([]),
    );
  }, []);

  const send = async () => {
    const fields: Record<string, string> = {};
    if (sid.trim()) fields.sid = sid.trim();
    if (chosenKinds.length > 0) fields.types = chosenKinds.join(',');
    if (scrubaudio) fields.scrubaudio = 'true';
    else if (chosenKinds.length > 0) fields.scrubtext = 'true';
    if (model) fields.model = model;
    if (agent) fields.agent_location = agent;
    const list = files.map((f) => ({ name: f.name, progress: 0 }) as Item);
    setItems(list);
    const update = (i: number, patch: Partial<Item>) => {
      list[i] = { ...list[i], ...patch };
      setItems([...list]);
    };
    await Promise.all(
      files.map((file, i) =>
        upload(file, fields, (p) => update(i, { progress: p })).then(
          (job) => update(i, { progress: 1, jobId: job.jobId }),
          (e: Error) => update(i, { error: e.message }),
        ),
      ),
    );
    setFiles([]);
    onSubmitted();
  };

  return (
    <section class="upload" aria-labelledby="upload-title">
      <h2 id="upload-title">Upload recordings</h2>
      <div
        class={`drop ${over ? 'over' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          setFiles([...files, ...Array.from(e.dataTransfer?.files ?? [])]);
        }}
      >
        <label for="upload-files">Drop recordings here or choose them</label>
        <input id="upload-files" type="file" multiple accept="audio/*,.zip" onChange={(e) => setFiles([...files, ...Array.from(e.currentTarget.files ?? [])])} />
        {files.length > 0 && <p>{files.map((f) => f.name).join(', ')}</p>}
      </div>
      <div class="options">
        <label for="upload-sid">Project</label>
        <input id="upload-sid" value={sid} onInput={(e) => setSid(e.currentTarget.value)} size={12} />
        <label for="upload-model">Model</label>
        <select id="upload-model" value={model} onChange={(e) => setModel(e.currentTarget.value)}>
          <option value="">chosen by the service</option>
          {models.map((m) => (
            <option value={m}>{m}</option>
          ))}
        </select>
        <label for="upload-agent">Agent channel</label>
        <select id="upload-agent" value={agent} onChange={(e) => setAgent(e.currentTarget.value)}>
          <option value="">not said</option>
          <option value="left">left</option>
          <option value="right">right</option>
        </select>
        <label class="check">
          <input type="checkbox" id="upload-scrubaudio" checked={scrubaudio} onChange={(e) => setScrubaudio(e.currentTarget.checked)} />
          Redact the audio (scrubaudio)
        </label>
      </div>
      <fieldset class="kinds">
        <legend>Kinds to redact (none: the project's rules; with audio redaction and no project, every kind)</legend>
        {kinds.map((k) => (
          <label class="check">
            <input
              type="checkbox"
              name="kinds"
              value={k}
              checked={chosenKinds.includes(k)}
              onChange={(e) => setChosenKinds(e.currentTarget.checked ? [...chosenKinds, k] : chosenKinds.filter((x) => x !== k))}
            />
            {k}
          </label>
        ))}
      </fieldset>
      <button type="button" id="upload-send" disabled={files.length === 0} onClick={send}>
        Upload {files.length > 0 ? `${files.length} recording${files.length > 1 ? 's' : ''}` : ''}
      </button>
      {items.length > 0 && (
        <ul class="progress" aria-label="Uploads">
          {items.map((it) => (
            <li>
              <label>
                {it.name} <progress max={1} value={it.progress} aria-label={`Upload of ${it.name}`} />
              </label>{' '}
              {it.jobId && <a href={`#/jobs/${it.jobId}`}>job</a>}
              {it.error && <span class="error">{it.error}</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
