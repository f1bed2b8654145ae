// GET /asr/search: full-text search over the redacted transcripts of calls — completed jobs whose redaction
// completed, and post-call records — with the database's own text search (store/searchEntries.ts). Only
// redacted text was ever indexed, so a masked value (a card number, a name) is never found, and every snippet
// comes from the redacted text. The query is words: nothing the client types is query syntax.
import type { FastifyPluginAsync } from 'fastify';
import Type from 'typebox';
import { invalid } from '../../errors.js';
import { idString, isoParam, isoTime, paging } from '../../schema/bounds.js';
import { type Polarity, POLARITIES } from '../../store/callFigures.js';
import { MAX_SEARCH_WORDS, searchWords } from '../../store/searchEntries.js';
import type { Services } from '../../services.js';
import { responses } from '../schemas.js';

/** Longest query: a few words, not a document. */
const MAX_QUERY_LENGTH = 256;

const polarity = (description: string) => Type.Optional(Type.Union(POLARITIES.map((p) => Type.Literal(p)), { description }));

interface SearchParams {
  q?: string;
  agent?: string;
  campaign?: string;
  sid?: string;
  from?: string;
  to?: string;
  category?: string;
  violation?: string;
  sentiment?: Polarity;
  agentSentiment?: Polarity;
  callerSentiment?: Polarity;
  limit: number;
  offset: number;
}

export function searchRoutes(services: Services): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Querystring: SearchParams }>(
      '/asr/search',
      {
        config: { scope: 'read' },
        schema: {
          operationId: 'searchCalls',
          tags: ['jobs'],
          summary: 'Calls whose redacted transcript holds every word of the query (or, without one, every call by the filters), newest first',
          description:
            '`q` is taken as words (letters and digits; everything else separates them, so quotes, operators, NEAR and parentheses are literal text, never syntax); ' +
            `a call matches when its redacted transcript holds all of them (at most ${MAX_SEARCH_WORDS} words are used). A query with no word is refused (400). ` +
            'Only redacted text is indexed: a completed job once its redaction completed (a job with no redaction asked is not indexed), and post-call records; ' +
            'a value that was masked is never found. Without `q` (or with an empty one) every indexed call is listed by the filters, each with the opening of its redacted text as its snippet. ' +
            'Filters: `sid` (the project), `agent`, `campaign`, `from` (created at or after), `to` (created before); ' +
            '`category` (an insight id that matched on the call), `violation` (an insight id that was a compliance violation on the call), ' +
            "`sentiment` (the call's overall sentiment), `agentSentiment`, `callerSentiment` (negative | neutral | positive). The insight and sentiment filters find analysed calls only " +
            '(a processed post-call record, a completed job that asked for `analytics` or `insights`): a call never analysed has neither.',
          querystring: Type.Object({
            q: Type.Optional(Type.String({ maxLength: MAX_QUERY_LENGTH, pattern: '^[^\\u0000-\\u001F\\u007F]*$', description: 'The words to find; absent or empty: every call, by the filters.' })),
            agent: Type.Optional(idString({ description: "Only calls of this agent (a post-call record's agentId, a job's agent)." })),
            campaign: Type.Optional(idString({ description: "Only calls of this campaign (a post-call record's campaignId, a job's campaign)." })),
            sid: Type.Optional(idString({ description: 'Only calls of this project.' })),
            from: Type.Optional(isoTime('Only calls created at or after this time (ISO 8601 date-time, or a date: its midnight UTC).')),
            to: Type.Optional(isoTime('Only calls created before this time (ISO 8601 date-time, or a date: its midnight UTC).')),
            category: Type.Optional(idString({ description: 'Only calls on which this insight (its id) matched.' })),
            violation: Type.Optional(idString({ description: 'Only calls on which this insight (its id) was a compliance violation.' })),
            sentiment: polarity("Only calls of this overall sentiment."),
            agentSentiment: polarity("Only calls whose agent's sentiment was this."),
            callerSentiment: polarity("Only calls whose caller's sentiment was this."),
            ...paging(100, 20),
          }),
          response: responses(
            {
              200: Type.Object({
                limit: Type.Integer(),
                offset: Type.Integer(),
                results: Type.Array(
                  Type.Object({
                    kind: Type.Union([Type.Literal('job'), Type.Literal('record')]),
                    id: Type.String({ description: 'The jobId, or the post-call record\'s eventId.' }),
                    createdAt: Type.String(),
                    snippet: Type.String({ description: 'Where the words are, from the redacted text.' }),
                    agentId: Type.Optional(Type.String()),
                    campaign: Type.Optional(Type.String()),
                  }),
                ),
              }),
            },
            [400],
          ),
        },
      },
      async (request) => {
        const { q = '', limit, offset } = request.query;
        const words = searchWords(q);
        // Text that is all separators is not "no query": it asked for words and held none.
        if (words.length === 0 && q.trim().length > 0) {
          const message = 'holds no word (letters or digits) to search for';
          throw invalid(`q ${message}`, [{ pointer: '/query/q', path: 'query.q', message }]);
        }
        const from = isoParam(request.query.from, 'from');
        const to = isoParam(request.query.to, 'to');
        const hits = await services.store.search.search({ words, sid: request.query.sid, agentId: request.query.agent, campaign: request.query.campaign, from, to,
          category: request.query.category,
          violation: request.query.violation,
          sentiment: request.query.sentiment,
          agentSentiment: request.query.agentSentiment,
          callerSentiment: request.query.callerSentiment,
          limit,
          offset,
        });
        return {
          limit,
          offset,
          results: hits.map((h) => ({ kind: h.kind, id: h.id, createdAt: h.createdAt, snippet: h.snippet, ...(h.agentId !== null && { agentId: h.agentId }), ...(h.campaign !== null && { campaign: h.campaign }) })),
        };
      },
    );
  };
}
