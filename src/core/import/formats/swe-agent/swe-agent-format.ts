import { isPlainObject } from '../../../shared/safe-parse-json.ts';
import type { DocumentFormatSpec } from '../transcript-format-spec.ts';
import { sweAgentDocumentToDraft } from './parse-swe-agent-transcript.ts';

export const sweAgentFormat: DocumentFormatSpec<'swe-agent'> = {
  id: 'swe-agent',
  label: 'SWE-agent trajectory',
  expectation: 'an SWE-agent .traj file: {"trajectory":[steps],"history":[messages],"info":{…}}',
  fileExtensions: ['.traj', '.json'],
  layout: 'document',
  detect: {
    document: (value) =>
      isPlainObject(value) &&
      Array.isArray(value.trajectory) &&
      (Array.isArray(value.history) || isPlainObject(value.info))
        ? { confidence: 0.95, reason: 'an SWE-agent trajectory with "trajectory" steps and "history"' }
        : null,
  },
  parse: sweAgentDocumentToDraft,
};
