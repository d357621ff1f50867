import { isPlainObject } from '../../../shared/safe-parse-json.ts';
import type { DocumentFormatSpec } from '../transcript-format-spec.ts';
import { INTERNAL_TRANSCRIPT_FORMAT as INTERNAL_FORMAT_TAG } from '../../../export/export-internal-json.ts';
import { internalDocumentToDraft } from './parse-internal-transcript.ts';

export const internalFormat: DocumentFormatSpec<'internal'> = {
  id: 'internal',
  label: 'Context Lab JSON',
  expectation: `a {"format":"${INTERNAL_FORMAT_TAG}","version":1} document`,
  fileExtensions: ['.json'],
  layout: 'document',
  lossless: true,
  detect: {
    document: (value) =>
      isPlainObject(value) && value.format === INTERNAL_FORMAT_TAG
        ? { confidence: 1, reason: `the document says "format":"${INTERNAL_FORMAT_TAG}"` }
        : null,
  },
  parse: internalDocumentToDraft,
};
