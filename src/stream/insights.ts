// Real-time insights in a live stream (issues 18/19): the project's insights with `realTime: true` (the stream's
// `sid`) evaluated on each final as it is sent, by the same function as POST /cache/real-call
// (conversation/realTime.ts realTimeFields), over the stream's earlier finals. They see the text as sent: redacted,
// marked windows masked, so an insight can never fire on (or reveal) a masked value.
import { compileInsights } from '../conversation/insights/definitions.js';
import { realTimeFields } from '../conversation/realTime.js';
import type { ProjectConfig } from '../schema/resources/projectConfig.js';
import type { RealTimeMessage } from '../schema/resources/realTimeMessage.js';
import type { InsightsHook } from './session.js';

/** The hook of one stream, or none when the project has no real-time insight. */
export function streamInsights(config: Pick<ProjectConfig, 'insights'> | undefined): InsightsHook | undefined {
  const insights = compileInsights(config?.insights, '/project/insights').filter((c) => c.insight.realTime === true);
  if (insights.length === 0) return undefined;
  // The conversation so far, in the order sent (every channel): a phrase said across two finals is found.
  const earlier: RealTimeMessage[] = [];
  return (final) => {
    const message: RealTimeMessage = { isFinal: true, text: final.text, speaker: final.speaker, messageStartTime: final.start, messageEndTime: final.end };
    const fields = realTimeFields(earlier, message, insights);
    earlier.push(message);
    return fields;
  };
}
