-- Every stored webhook field is bounded (src/schemas/webhooks.ts): endpoint_url at most 500
-- characters (already checked), event_types without duplicates (already), and filters holding the
-- accepted keys only, each value at most 1,000 characters (query: 4,096) and 4,096 in all. Rows
-- stored before these bounds are brought within them here.

-- Keys the API no longer accepts are dropped. They were ignored when events were matched, so no
-- webhook hears anything different.
UPDATE webhooks
   SET filters = COALESCE(
         (SELECT jsonb_object_agg(f.key, f.value)
            FROM jsonb_each(webhooks.filters) AS f
           WHERE f.key IN ('countries', 'categories', 'search', 'teamSize', 'dateFrom', 'dateTo', 'funding',
                           'roundFlavor', 'fundingAmount', 'acquisitionAmount', 'healthScore', 'query')),
         '{}'::jsonb)
 WHERE EXISTS (
         SELECT 1 FROM jsonb_each(webhooks.filters) AS f
          WHERE f.key NOT IN ('countries', 'categories', 'search', 'teamSize', 'dateFrom', 'dateTo', 'funding',
                              'roundFlavor', 'fundingAmount', 'acquisitionAmount', 'healthScore', 'query'));

-- A value over its bound cannot be cut without changing what it matches, so it is removed (all of
-- them if the rest is still over 4,096 in all), and the webhook is paused with a paused_reason
-- naming what was removed: without it the webhook would match more than its owner asked for, so
-- nothing more is sent until the owner sets its filters again and turns it on.
WITH bounded AS (
  SELECT w.id,
         COALESCE(
           (SELECT jsonb_object_agg(f.key, f.value)
              FROM jsonb_each(w.filters) AS f
             WHERE length(f.value #>> '{}') <= CASE WHEN f.key = 'query' THEN 4096 ELSE 1000 END),
           '{}'::jsonb) AS kept
    FROM webhooks AS w
   WHERE (SELECT COALESCE(sum(length(f.value #>> '{}')), 0) FROM jsonb_each(w.filters) AS f) > 4096
      OR EXISTS (SELECT 1 FROM jsonb_each(w.filters) AS f
                  WHERE length(f.value #>> '{}') > CASE WHEN f.key = 'query' THEN 4096 ELSE 1000 END)
), kept AS (
  SELECT id,
         CASE WHEN (SELECT COALESCE(sum(length(f.value #>> '{}')), 0) FROM jsonb_each(kept) AS f) > 4096
              THEN '{}'::jsonb ELSE kept END AS filters
    FROM bounded
)
UPDATE webhooks
   SET active = false,
       paused_reason =
         'Paused: its filters were longer than the bounds now in force (each value at most 1,000 characters, query '
         || '4,096, 4,096 in all), so these were removed: '
         || (SELECT string_agg('filters.' || f.key, ', ' ORDER BY f.key)
               FROM jsonb_each(webhooks.filters) AS f WHERE NOT kept.filters ? f.key)
         || '. Without them it would match more events than before: set its filters again, then turn it on.',
       filters = kept.filters,
       updated_at = now()
  FROM kept
 WHERE webhooks.id = kept.id;
