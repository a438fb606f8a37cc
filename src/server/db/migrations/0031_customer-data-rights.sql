-- Roles name their rights over customer data. A role that could edit customer-profile-attribute could
-- import, edit and erase profiles, so it keeps reading and erasing them; every other role gets none, and
-- exporting is left to managers until one grants it.
UPDATE "workspaces" SET "roles" = (
  SELECT coalesce(jsonb_object_agg(
    "role"."key",
    CASE
      WHEN "role"."value" ? 'customerData' THEN "role"."value"
      WHEN coalesce("role"."value" -> 'canEdit', '[]'::jsonb) ? 'customer-profile-attribute'
        THEN "role"."value" || '{"customerData": ["read", "erase"]}'::jsonb
      ELSE "role"."value" || '{"customerData": []}'::jsonb
    END
  ), '{}'::jsonb)
  FROM jsonb_each("workspaces"."roles") AS "role"
);
