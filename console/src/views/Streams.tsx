// Live streams: every stream kept, the most recently active first (GET /asr/streams), or those that carried a
// telephony call (GET /asr/streams?callSid=), and a stream's
// kept finals (GET /asr/stream/{id}/messages) as the client received them: redacted in flight, so the text shown
// is the text sent, with the kinds each final had masked, by Agent and Caller.
import { useEffect, useState } from 'preact/hooks';
import { getJson } from '../api';
import { seconds, when } from '../format';

interface StreamBrief {
  streamId: string;
  callSid?: string;
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

/** Streams listed at once (the API's own limit). */
const PAGE = 100;

function StreamList({ callSid }: { callSid?: string }) {
  const [draft, setDraft] = useState(callSid ?? '');
  const [offset, setOffset] = useState(0);
  const [found, setFound] = useState<{ callSid?: string; streams: StreamBrief[] }>();
  const [error, setError] = useState<string>();
  useEffect(() => setOffset(0), [callSid]);
  useEffect(() => {
    let cancelled = false;
    setFound(undefined);
    // A call asked for: its streams; else every stream kept, the most recently active first, a page at a time.
    const url = callSid ? `/asr/streams?callSid=${encodeURIComponent(callSid)}` : `/asr/streams?limit=${PAGE}&offset=${offset}`;
    getJson<{ callSid?: string; streams: StreamBrief[] }>(url).then(
      (r) => {
        if (cancelled) return;
        setFound(r);
        setError(undefined);
      },
      (e: Error) => !cancelled && setError(e.message),
    );
    return () => {
      cancelled = true;
    };
  }, [callSid, offset]);
  return (
    <section aria-labelledby="streams-title">
      <h1 id="streams-title">Live streams</h1>
      <form
        class="filters"
        aria-label="Find the streams of a call"
        onSubmit={(e) => {
          e.preventDefault();
          // The address keeps the call asked for (back and reload show it again); none: every stream.
          location.hash = draft.trim() ? `#/streams?callSid=${encodeURIComponent(draft.trim())}` : '#/streams';
        }}
      >
        <label for="streams-callSid">Call id</label>
        <input id="streams-callSid" value={draft} size={24} onInput={(e) => setDraft(e.currentTarget.value)} />
        <button type="submit">Find</button>
      </form>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {found && found.streams.length === 0 && <p id="streams-count">{callSid ? `No stream of call ${callSid} is kept.` : offset > 0 ? 'No more streams.' : 'No stream is kept.'}</p>}
      {found && found.streams.length > 0 && (
        <table class="jobs streams" aria-label={callSid ? `Streams of call ${callSid}` : 'Streams kept, the most recently active first'}>
          <thead>
            <tr>
              <th scope="col">Stream</th>
              <th scope="col">Call</th>
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
                <td>{callSid ?? s.callSid ?? '—'}</td>
                <td>{s.messages}</td>
                <td>{when(s.firstAt)}</td>
                <td>{when(s.lastAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {!callSid && found && (
        <nav class="pager" aria-label="Pages of streams">
          <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
            Newer
          </button>
          <span id="streams-page">{found.streams.length === 0 ? '' : `${offset + 1}–${offset + found.streams.length}`}</span>
          <button type="button" disabled={found.streams.length < PAGE} onClick={() => setOffset(offset + PAGE)}>
            Older
          </button>
        </nav>
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
