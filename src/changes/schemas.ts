// GET /api/v2/changes: the changes feed's query and its page (the v2 envelope with a cursor).
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { DATASET_NAMES, DATASETS, ListString, Nullable, type DatasetName } from '../catalog/index.js';

/** The data sets the feed carries, by their one spelling (src/catalog/datasets): every one in the registry. */
export const CHANGE_FEED_DATASETS = DATASET_NAMES;
export const CHANGE_OPS = ['created', 'updated', 'deleted'] as const;

export const MAX_CHANGES_LIMIT = 1000;

export const ChangesQuery = Type.Object(
  {
    since: Type.Optional(
      Type.String({
        description:
          'Where to continue: a cursor this feed returned (`pagination.nextCursor`, or the `cursor` of the last item applied). ' +
          'The page starts right after it. Without it, the feed starts at the oldest change still retained. `now`: the ' +
          'head, to start following the feed from this moment: an empty page (`data: []`, `hasNextPage: false`) whose ' +
          '`nextCursor` is the newest change, free of credits like count mode. Load the records from the list endpoints ' +
          'after taking that cursor, then follow the feed from it.',
      }),
    ),
    datasets: Type.Optional(
      ListString({
        description: `Comma-separated data sets to include: ${CHANGE_FEED_DATASETS.join(', ')} (default: all)`,
        examples: ['funding,investors'],
      }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_CHANGES_LIMIT,
        default: 100,
        description: `Changes per page, 1 to ${MAX_CHANGES_LIMIT}`,
      }),
    ),
    count: Type.Optional(
      Type.Boolean({
        default: false,
        description:
          'Count mode: `true` returns `data: []` and `pagination.totalCount`, the exact number of retained changes after ' +
          '`since` in the selected data sets, and costs no credits',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ChangesQuery = Static<typeof ChangesQuery>;

const ChangeItem = Type.Object({
  cursor: Type.String({ description: "This change's position: passed as `since`, the feed continues right after it" }),
  dataset: Type.Unsafe<DatasetName>({ type: 'string', enum: [...CHANGE_FEED_DATASETS] }),
  op: Type.Unsafe<(typeof CHANGE_OPS)[number]>({ type: 'string', enum: [...CHANGE_OPS] }),
  id: Nullable(
    Type.String({
      description:
        "The record's natural key, the same in every change of the record: `id` (investors, acquisitions), `signalId` " +
        '(job changes), `investment_id` (m-a) of the record; for funding, the key the round was ingested under ' +
        '(`source:` and its source id, else `name_path|round type|YYYY-MM-DD of date_seen`). Null only for a change ' +
        'logged before keys were, whose record is gone.',
    }),
  ),
  changedAt: Type.String({ format: 'date-time', description: 'When the change was committed (UTC)' }),
  record: Type.Union(
    [
      // Each data set's record, by reference where the documents name it.
      ...DATASETS.map((dataset): TSchema => (dataset.record.$id === undefined ? dataset.record : Type.Ref(dataset.record))),
      Type.Null(),
    ],
    {
      description:
        "The record as its data set's list endpoint serves it now (not as it was at this change). Null for a deletion, " +
        'and also for a creation or update of a record deleted since: its deletion comes later in the feed.',
    },
  ),
});

export const ChangesPagination = Type.Object({
  limit: Type.Integer({ minimum: 1 }),
  nextCursor: Type.String({
    description:
      "Pass as `since` for the next page: the last item's cursor, or how far the log was read when items were skipped " +
      '(other data sets) or none were found. Unchanged from `since` in count mode; the head with `since=now`.',
  }),
  hasNextPage: Type.Boolean({
    description:
      'true: ask again now, more changes of the selected data sets follow (or reading stopped early). false: none ' +
      'after nextCursor yet; poll later with it.',
  }),
  totalCount: Type.Optional(Type.Integer({ minimum: 0, description: 'Count mode only: retained changes after `since`' })),
});

export const ChangesResponse = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Array(ChangeItem),
    pagination: ChangesPagination,
    meta: Type.Object({
      endpoint: Type.Literal('changes'),
      creditsUsed: Type.Integer({ minimum: 0, description: '1 per page of changes; 0 in count mode and with `since=now`' }),
      creditsRemaining: Type.Integer({ minimum: 0, description: "The account's balance after this call" }),
    }),
  },
  { description: 'A page of changes, oldest first' },
);
