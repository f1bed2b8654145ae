// Live streams of a call: the streams that carried a telephony call (GET /asr/streams?callSid=), and a stream's
// kept finals (GET /asr/stream/{id}/messages) as the client received them: redacted in flight, so the text shown
// is the text sent, with the kinds each final had masked, by Agent and Caller.
import { useEffect, useState } from 'preact/hooks';
import { getJson } from '../api';
import { seconds, when } from '../format';

interface StreamBrief {
  streamId: string;
  messages: number;
  firstAt: string;
  lastAt: string;
}

interface Kept {
  sequence: number;
  channel: number;
  createdAt: string;
  message: { realTimeMessage?: { text?: string; speaker?: string; messageStartTime?: number; agentId?: string; campaign?: string }; redacted?: string[] };
}

export function StreamsView({ streamId, callSid }: { streamId?: string; callSid?: string }) {
  return streamId ? <StreamView streamId={streamId} /> : <StreamList callSid={callSid} />;
}

function StreamList({ callSid }: { callSid?: string }) {
  const [draft, setDraft] = useState(callSid ?? '');
  const [found, setFound] = useState<{ callSid: string; streams: StreamBrief[] }>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    if (!callSid) return setFound(undefined);
    getJson<{ callSid: string; streams: StreamBrief[] }>(`/asr/streams?callSid=${encodeURIComponent(callSid)}`).then(
      (r) => {
        setFound(r);
        setError(undefined);
      },
      (e: Error) => setError(e.message),
    );
  }, [callSid]);
  return (
    <section aria-labelledby="streams-title">
      <h1 id="streams-title">Live streams</h1>
      <form
        class="filters"
        aria-label="Find the streams of a call"
        onSubmit={(e) => {
          e.preventDefault();
          // The address keeps the call asked for (back and reload show it again).
          location.hash = `#/streams?callSid=${encodeURIComponent(draft.trim())}`;
        }}
      >
        <label for="streams-callSid">Call id</label>
        <input id="streams-callSid" value={draft} required size={24} onInput={(e) => setDraft(e.currentTarget.value)} />
        <button type="submit">Find</button>
      </form>
      {!callSid && <p class="hint">The kept finals of live streams are found by the call that they carried (its callSid).</p>}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {found && found.streams.length === 0 && <p id="streams-count">No stream of call {found.callSid} is kept.</p>}
      {found && found.streams.length > 0 && (
        <table class="jobs streams" aria-label={`Streams of call ${found.callSid}`}>
          <thead>
            <tr>
              <th scope="col">Stream</th>
              <th scope="col">Finals kept</th>
              <th scope="col">First</th>
              <th scope="col">Last</th>
            </tr>
          </thead>
          <tbody>
            {found.streams.map((s) => (
              <tr data-stream={s.streamId}>
                <td>
                  <a href={`#/streams/${encodeURIComponent(s.streamId)}`}>{s.streamId}</a>
                </td>
                <td>{s.messages}</td>
                <td>{when(s.firstAt)}</td>
                <td>{when(s.lastAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

const SIDE: Record<string, string> = { agent: 'Agent', caller: 'Caller' };

function StreamView({ streamId }: { streamId: string }) {
  const [messages, setMessages] = useState<Kept[]>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    // Every page of kept finals, in sequence order.
    const load = async () => {
      const all: Kept[] = [];
      let after: number | null = 0;
      while (after !== null) {
        const page: { messages: Kept[]; nextAfterSequence: number | null } = await getJson(`/asr/stream/${encodeURIComponent(streamId)}/messages?afterSequence=${after}`);
        all.push(...page.messages);
        after = page.nextAfterSequence;
      }
      setMessages(all);
    };
    load().catch((e: Error) => setError(e.message));
  }, [streamId]);
  if (error) return <p class="error" role="alert">{error}</p>;
  if (!messages) return <p role="status">Loading the stream…</p>;
  const first = messages[0]?.message.realTimeMessage;
  return (
    <article aria-labelledby="stream-title">
      <p>
        <a href="#/streams">← Live streams</a>
      </p>
      <h1 id="stream-title">Stream {streamId}</h1>
      <dl class="summary">
        <dt>Finals kept</dt>
        <dd data-figure="finals">{messages.length}</dd>
        <dt>Agent</dt>
        <dd>{first?.agentId ?? '—'}</dd>
        <dt>Campaign</dt>
        <dd>{first?.campaign ?? '—'}</dd>
      </dl>
      <section aria-labelledby="finals-title" class="transcript">
        <h2 id="finals-title">Finals</h2>
        <ol class="turns stereo">
          {messages.map((m) => {
            const rt = m.message.realTimeMessage ?? {};
            const side = SIDE[rt.speaker ?? ''] ?? `Channel ${m.channel + 1}`;
            return (
              <li class={`turn lane-${rt.speaker === 'agent' ? 0 : 1}`} data-sequence={m.sequence} data-channel={m.channel}>
                <span class="stamp">{seconds(rt.messageStartTime)}</span>
                <span class="speaker">{side}</span>
                <p>
                  {rt.text}
                  {m.message.redacted && m.message.redacted.length > 0 && (
                    <>
                      {' '}
                      <small class="masked">masked: {m.message.redacted.join(', ')}</small>
                    </>
                  )}
                </p>
              </li>
            );
          })}
        </ol>
      </section>
    </article>
  );
}
