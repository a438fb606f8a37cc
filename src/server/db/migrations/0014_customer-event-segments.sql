-- Edited by hand after drizzle-kit generate (which only added the column): each hash partition of customer_events becomes partitioned by segment. Segment 0 is the live partition (customer_events_live_p{n}), written row by row by tracking and small imports; a large import loads its events into a segment of its own without indexes and builds them once, sorted, when it attaches the segment (customers/segments.ts). The rows are copied over with writes held off (EXCLUSIVE lock: reads go on) until this migration commits.
LOCK TABLE "customer_events" IN EXCLUSIVE MODE;--> statement-breakpoint
CREATE SEQUENCE "customer_event_segments" AS bigint;--> statement-breakpoint
CREATE TABLE "customer_events_next" (
	"workspace_id" text NOT NULL,
	"profile_id" text NOT NULL,
	"event" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"properties" jsonb NOT NULL,
	"segment" bigint DEFAULT 0 NOT NULL
) PARTITION BY HASH ("profile_id");--> statement-breakpoint
CREATE TABLE "customer_events_p0_next" PARTITION OF "customer_events_next" FOR VALUES WITH (MODULUS 4, REMAINDER 0) PARTITION BY LIST ("segment");--> statement-breakpoint
CREATE TABLE "customer_events_p1_next" PARTITION OF "customer_events_next" FOR VALUES WITH (MODULUS 4, REMAINDER 1) PARTITION BY LIST ("segment");--> statement-breakpoint
CREATE TABLE "customer_events_p2_next" PARTITION OF "customer_events_next" FOR VALUES WITH (MODULUS 4, REMAINDER 2) PARTITION BY LIST ("segment");--> statement-breakpoint
CREATE TABLE "customer_events_p3_next" PARTITION OF "customer_events_next" FOR VALUES WITH (MODULUS 4, REMAINDER 3) PARTITION BY LIST ("segment");--> statement-breakpoint
CREATE TABLE "customer_events_live_p0" PARTITION OF "customer_events_p0_next" FOR VALUES IN (0);--> statement-breakpoint
CREATE TABLE "customer_events_live_p1" PARTITION OF "customer_events_p1_next" FOR VALUES IN (0);--> statement-breakpoint
CREATE TABLE "customer_events_live_p2" PARTITION OF "customer_events_p2_next" FOR VALUES IN (0);--> statement-breakpoint
CREATE TABLE "customer_events_live_p3" PARTITION OF "customer_events_p3_next" FOR VALUES IN (0);--> statement-breakpoint
INSERT INTO "customer_events_next" ("workspace_id", "profile_id", "event", "at", "properties") SELECT "workspace_id", "profile_id", "event", "at", "properties" FROM "customer_events";--> statement-breakpoint
DROP TABLE "customer_events";--> statement-breakpoint
ALTER TABLE "customer_events_next" RENAME TO "customer_events";--> statement-breakpoint
ALTER TABLE "customer_events_p0_next" RENAME TO "customer_events_p0";--> statement-breakpoint
ALTER TABLE "customer_events_p1_next" RENAME TO "customer_events_p1";--> statement-breakpoint
ALTER TABLE "customer_events_p2_next" RENAME TO "customer_events_p2";--> statement-breakpoint
ALTER TABLE "customer_events_p3_next" RENAME TO "customer_events_p3";--> statement-breakpoint
CREATE INDEX "customer_events_window_idx" ON "customer_events" USING btree ("workspace_id","event","at","profile_id") INCLUDE ("properties");--> statement-breakpoint
CREATE INDEX "customer_events_event_profile_idx" ON "customer_events" USING btree ("workspace_id","event","profile_id","at");
