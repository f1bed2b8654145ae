// Project configurations as the console reads them: the projects that have a published version, every version of
// one (with its configuration, for the diff between versions), and a preview that redacts a sample sentence with a
// draft configuration, validated exactly as a publish would be, resolved by the one policy resolver and redacted by
// the one redaction core. Publishing itself stays POST /system/cache/v2/publish.
import type { FastifyPluginAsync } from 'fastify';
import Type from 'typebox';
import { compileInsights } from '../../conversation/insights/definitions.js';
import { runInsights } from '../../conversation/insights/run.js';
import { conversationOfTranscript } from '../../conversation/normalize.js';
import { textToTranscript } from '../../jobs/textTranscript.js';
import { ENTITY_KINDS } from '../../redact/entityKinds.js';
import { utterancesFor } from '../../transcript/index.js';
import { redactTextOffLoop } from '../../workers/index.js';
import { policyRules, resolvePolicy } from '../../redact/policy.js';
import { idString, paging } from '../../schema/bounds.js';
import { MASK_TYPES } from '../../schema/resources/projectConfig.js';
import { maskCredentials } from '../../security/credentials.js';
import type { Services } from '../../services.js';
import { responses } from '../schemas.js';

/** The longest sample sentence a preview redacts. */
export const MAX_PREVIEW_CHARS = 4000;

/** What one insight rule of the draft found in the (redacted) sample: as a job's analytics would name it. */
const InsightPreview = Type.Object({
  id: Type.String(),
  name: Type.Optional(Type.String()),
  type: Type.Union([Type.Literal('match'), Type.Literal('no_match'), Type.Literal('compliance_violation')]),
  lines: Type.Array(
    Type.Object({
      line: Type.Integer({ description: 'The line of the sample (0-based, blank lines skipped).' }),
      speaker: Type.Integer({ description: '0 the agent, 1 the caller.' }),
      text: Type.String({ description: 'The words matched, from the redacted sample.' }),
    }),
  ),
});

const ProjectSummary = Type.Object({ sid: Type.String(), version: Type.Integer(), publishedAt: Type.String() });
const ProjectVersionOut = Type.Object(
  { sid: Type.String(), version: Type.Integer(), publishedAt: Type.String(), config: Type.Object({}, { additionalProperties: true }) },
  { additionalProperties: false },
);

export function projectRoutes(services: Services): FastifyPluginAsync {
  const tags = ['system'];
  // The key redaction's Hash masks are made with (as every job's).
  const hashKey = services.box.derive('redaction-hash');
  return async (app) => {
    app.get<{ Querystring: { limit: number; offset: number } }>(
      '/system/projects',
      {
        config: { scope: 'read' },
        schema: {
          operationId: 'listProjects',
          tags,
          summary: 'Projects with a published configuration: each sid with its latest version; and the kinds and mask types a rule may name',
          querystring: Type.Object({ ...paging(500, 100) }),
          response: responses({
            200: Type.Object({
              total: Type.Integer(),
              projects: Type.Array(ProjectSummary),
              kinds: Type.Array(Type.String()),
              maskTypes: Type.Array(Type.String()),
            }),
          }),
        },
      },
      async (request) => ({
        ...(await services.store.projects.projects(request.query.limit, request.query.offset)),
        kinds: [...ENTITY_KINDS],
        maskTypes: [...MASK_TYPES],
      }),
    );

    app.get<{ Params: { sid: string }; Querystring: { limit: number } }>(
      '/system/projects/:sid/versions',
      {
        config: { scope: 'read' },
        schema: {
          operationId: 'listProjectVersions',
          tags,
          summary: "A project's published versions with their configurations (credentials masked), newest first",
          params: Type.Object({ sid: idString() }),
          querystring: Type.Object({ limit: paging(200, 50).limit }),
          response: responses({ 200: Type.Object({ sid: Type.String(), versions: Type.Array(ProjectVersionOut) }) }, [400, 404]),
        },
      },
      async (request) => {
        const versions = await services.store.projects.history(request.params.sid, request.query.limit);
        if (versions.length === 0) await services.projects.require(request.params.sid);
        // A configuration may carry fields of its own: any credential among them is answered masked, as everywhere.
        return { sid: request.params.sid, versions: versions.map((v) => ({ ...v, config: maskCredentials(v.config, services.box) })) };
      },
    );

    app.post<{ Body: { data: string; text: string } }>(
      '/system/projects/preview',
      {
        config: { scope: 'admin' },
        schema: {
          operationId: 'previewProject',
          tags,
          summary: 'Redact a sample sentence with a draft project configuration (validated as a publish is); nothing is stored',
          description:
            'The draft is resolved as a job naming the project with scrubtext would be (its active rules, else every kind) and the ' +
            'sentence is redacted by the same core as transcripts. The answer carries the redacted sentence and, per span, the kind, ' +
            'mask type and where the mask stands: never the redacted value. The draft\'s insight rules (if any) are run over the redacted ' +
            'sentence as a text job\'s are (one line per utterance; "Agent:" and "Caller:" name the side, the agent on the draft\'s ' +
            'agent_location): `insights` says, per rule, match, no_match or compliance_violation, and the words each matched.',
          body: Type.Object(
            {
              data: Type.String({ description: 'The draft project configuration (resource 19) as a JSON string, as for publish.' }),
              text: Type.String({ minLength: 1, maxLength: MAX_PREVIEW_CHARS, pattern: '^[^\\u0000]*$', description: 'The sample sentence.' }),
            },
            { additionalProperties: false },
          ),
          response: responses({
            200: Type.Object({
              text: Type.String(),
              kinds: Type.Array(Type.String()),
              spans: Type.Array(Type.Object({ kind: Type.String(), maskType: Type.String(), offset: Type.Integer(), length: Type.Integer() })),
              insights: Type.Array(InsightPreview),
            }),
          }),
        },
      },
      async (request) => {
        const config = services.projects.parse(request.body.data);
        const policy = resolvePolicy({ ask: { scrubtext: true }, project: { sid: config.sid, version: 0, config } });
        const rules = policyRules(policy, config);
        const result = await redactTextOffLoop(request.body.text, rules, hashKey);
        return {
          text: result.text,
          kinds: policy.kinds,
          spans: result.found.map((f) => ({ kind: f.rule.kind, maskType: f.rule.maskType, offset: f.offset, length: f.length })),
          insights: previewInsights(config.insights, result.text, config.agent_location),
        };
      },
    );
  };
}

/**
 * The draft's insight rules run over the redacted sample, as a text job's are (insights read the redacted
 * transcript, so a rule can never match, or answer, a masked value).
 */
function previewInsights(insights: Parameters<typeof compileInsights>[0], redacted: string, agentLocation: unknown) {
  if (!insights || insights.length === 0) return [];
  const agent = agentLocation === 'right' ? 1 : 0;
  const transcript = textToTranscript(redacted, 'text:input', agent);
  const conversation = conversationOfTranscript(transcript, utterancesFor(transcript), { agentLocation: agent === 1 ? 'right' : 'left' });
  return runInsights(compileInsights(insights, '/data/insights'), conversation)
    .filter((r) => r.applies)
    .map((r) => ({
      id: r.compiled.insight.id ?? r.compiled.origin,
      ...(r.compiled.insight.name && { name: r.compiled.insight.name }),
      type: r.violation ? ('compliance_violation' as const) : r.matched ? ('match' as const) : ('no_match' as const),
      lines: r.lines.map((l) => ({ line: l.hit.line, speaker: l.hit.speaker, text: l.hit.text })),
    }));
}
