/** Sample media values for the media components' tests. */
import type { FileRecord, SanityResult } from '@shared/media/contract';

export const WS = 'acme';

export const localSanity = (overrides: Partial<SanityResult['webDetection']> = {}): SanityResult => ({
  _issues: [
    "Matching images on the public internet not checked: compared with this workspace's own images only",
  ],
  webDetection: {
    pagesWithMatchingImages: [],
    bestGuessLabels: [{ label: 'landscape png image' }],
    webEntities: [{ description: 'png' }, { description: 'landscape' }],
    ...overrides,
  },
  safeSearchDetection: {
    adult: 'UNKNOWN',
    spoof: 'UNKNOWN',
    medical: 'UNKNOWN',
    violence: 'UNKNOWN',
    racy: 'UNKNOWN',
    _issues: [
      'Safe search not analysed: no image analysis service is configured (set GOOGLE_VISION_API_KEY)',
    ],
  },
  analysedBy: 'local',
  analysedAt: '2025-03-04T17:30:00.000Z',
});

export const visionSanity = (): SanityResult => ({
  _issues: [],
  webDetection: {
    pagesWithMatchingImages: [{ url: 'https://example.com/beach', pageTitle: 'Beach photos' }],
    bestGuessLabels: [{ label: 'sunset' }],
    webEntities: [{ description: 'Beach', score: 0.9 }],
  },
  safeSearchDetection: {
    adult: 'VERY_UNLIKELY',
    spoof: 'UNLIKELY',
    medical: 'POSSIBLE',
    violence: 'LIKELY',
    racy: 'VERY_LIKELY',
    _issues: [],
  },
  analysedBy: 'google-vision',
  analysedAt: '2025-03-04T17:30:00.000Z',
});

export const fileRecord = (
  storageName = 'abcdefghijklmnop1234.png',
  overrides: Partial<FileRecord> = {},
): FileRecord => ({
  name: 'beach.png',
  size: 2048,
  contentType: 'image/png',
  storageName,
  publicUrl: `/api/v1/workspaces/${WS}/files/${storageName}`,
  md5Hash: 'q1w2e3==',
  focusX: 0.5,
  focusY: 0.5,
  sanityResults: null,
  ...overrides,
});

export const pngFile = (name = 'summer-beach_01.png', size = 1000) =>
  new File([new Uint8Array(size)], name, { type: 'image/png' });

/** An Item as the items API answers it. */
export const itemAnswer = (
  id: string,
  data: Record<string, unknown>,
  schema = 'marquee-assets-image-set',
) => ({
  id,
  schema,
  data,
  _references: {},
  version: 1,
  lastWrittenBy: 'u1',
  lastWrittenByName: 'Uma Tester',
  lastWrittenAt: '2025-03-04T17:30:00.000Z',
  createdAt: '2025-03-04T17:30:00.000Z',
  createdBy: 'u1',
  hasErrors: false,
  variation: null,
  publishStatus: { live: 'NOT_PUBLISHED' },
  published: {},
  fullyApproved: true,
  remainingApprovals: [],
  approvedBy: [],
  abilities: { canEdit: true, canPublish: true, canApprove: false, canDelete: true },
});
