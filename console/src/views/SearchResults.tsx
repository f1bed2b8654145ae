// Calls found by words of their redacted transcript (GET /asr/search): jobs and post-call records, newest first,
// each with where the words are (or, found by filters alone, the opening of its redacted text). The snippet comes from the redacted text the index holds (a masked value was
// never indexed) and is drawn as text, never as markup.
import { when } from '../format';

export interface SearchHit {
  kind: 'job' | 'record';
  id: string;
  createdAt: string;
  snippet: string;
  agentId?: string;
  campaign?: string;
}

export const hitLink = (h: SearchHit): string => (h.kind === 'job' ? `#/jobs/${encodeURIComponent(h.id)}` : `#/records/${encodeURIComponent(h.id)}`);

export function SearchResults({ words, hits }: { words: string; hits: SearchHit[] }) {
  return (
    <table class="jobs search-results" aria-label={words ? `Calls whose redacted transcript holds ${words}` : 'Calls found by the filters'}>
      <thead>
        <tr>
          <th scope="col">Call</th>
          <th scope="col">Kind</th>
          <th scope="col">Where the words are</th>
          <th scope="col">Agent</th>
          <th scope="col">Campaign</th>
          <th scope="col">Created</th>
        </tr>
      </thead>
      <tbody>
        {hits.map((h) => (
          <tr data-hit={h.id} data-kind={h.kind}>
            <td>
              <a href={hitLink(h)}>{h.id}</a>
            </td>
            <td>{h.kind === 'job' ? 'job' : 'post-call record'}</td>
            <td class="snippet">{h.snippet}</td>
            <td>{h.agentId ?? '—'}</td>
            <td>{h.campaign ?? '—'}</td>
            <td>{when(h.createdAt)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
