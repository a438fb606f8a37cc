-- Edited by hand after drizzle-kit generate (which added the column NOT NULL and the index): every event stored so far gets its derived identity, the same hashtextextended of workspace, profile, event key, time in milliseconds and the properties' jsonb text that customers/event-identity.ts computes for a new event, so a later import of a file imported before finds its events. Events stored twice (the same identity for one profile) are kept once and the per-profile counts are counted again from the events left. Writes are held off (EXCLUSIVE lock: reads go on) until this migration commits.
LOCK TABLE "customer_events", "customer_event_counts" IN EXCLUSIVE MODE;--> statement-breakpoint
ALTER TABLE "customer_events" ADD COLUMN "ident" bigint;--> statement-breakpoint
UPDATE "customer_events" SET "ident" = hashtextextended(
	"workspace_id" || chr(31) || "profile_id" || chr(31) || "event" || chr(31)
	|| (extract(epoch from "at") * 1000)::bigint::text || chr(31) || "properties"::text, 0);--> statement-breakpoint
DELETE FROM "customer_events" d USING "customer_events" k
WHERE d."ident" = k."ident" AND d."profile_id" = k."profile_id"
	AND (d."segment" > k."segment" OR (d."segment" = k."segment" AND d.ctid > k.ctid));--> statement-breakpoint
DELETE FROM "customer_event_counts";--> statement-breakpoint
INSERT INTO "customer_event_counts" ("workspace_id", "event", "profile_id", "count")
SELECT "workspace_id", "event", "profile_id", count(*) FROM "customer_events" GROUP BY "workspace_id", "event", "profile_id";--> statement-breakpoint
ALTER TABLE "customer_events" ALTER COLUMN "ident" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "customer_events_ident_idx" ON "customer_events" USING btree ("ident","profile_id","segment");
