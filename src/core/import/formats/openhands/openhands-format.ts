import { firstObject } from '../../has-anthropic-blocks.ts';
import type { DocumentFormatSpec } from '../transcript-format-spec.ts';
import { openHandsDocumentToDraft } from './parse-openhands-transcript.ts';

export const openHandsFormat: DocumentFormatSpec<'openhands'> = {
  id: 'openhands',
  label: 'OpenHands trajectory',
  expectation:
    'an OpenHands event trajectory: a JSON array of {id, source, action, args} and {id, source, observation, content, cause} events',
  fileExtensions: ['.json'],
  layout: 'document',
  detect: {
    document: (value) => {
      const first = Array.isArray(value) ? firstObject(value) : undefined;
      return first &&
        typeof first.source === 'string' &&
        (typeof first.action === 'string' || typeof first.observation === 'string')
        ? { confidence: 0.95, reason: 'an array of OpenHands {source, action|observation} events' }
        : null;
    },
  },
  parse: openHandsDocumentToDraft,
};
