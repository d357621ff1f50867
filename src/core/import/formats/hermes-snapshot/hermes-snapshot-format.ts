import { isPlainObject } from '../../../shared/safe-parse-json.ts';
import type { DocumentFormatSpec } from '../transcript-format-spec.ts';
import { hermesSnapshotDocumentToDraft } from './parse-hermes-snapshot-transcript.ts';

export const hermesSnapshotFormat: DocumentFormatSpec<'hermes-snapshot'> = {
  id: 'hermes-snapshot',
  label: 'Hermes session JSON',
  expectation: 'a Hermes session object with "session_id" and a "messages" array',
  fileExtensions: ['.json'],
  layout: 'document',
  detect: {
    document: (value) =>
      isPlainObject(value) &&
      Array.isArray(value.messages) &&
      ('session_id' in value ||
        ('system_prompt' in value && ('session_start' in value || 'platform' in value)))
        ? { confidence: 0.95, reason: 'a Hermes session object with "session_id" and "messages"' }
        : null,
  },
  parse: hermesSnapshotDocumentToDraft,
};
